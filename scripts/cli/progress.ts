/**
 * Progress of a long CLI command, on stderr (stdout keeps the result, for pipes and --get): the count
 * so far, the rate and, when the total is known, the time left. Every long command uses it (ledger
 * reconcile, history export, seed-transactions, history rank-references, encryption migrate and
 * rotate-local-key, invoices void-gaps' wait), so they all read alike.
 */

const number = (n: number) => Math.round(n).toLocaleString('en')

/** Seconds as a person reads them: "9 s", "2 min 05 s", "1 h 02 min". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`
}

/**
 * One progress line: `label 1,234 of 5,000 items (412/s, 9 s left)`, or without a total
 * `label 1,234 items (412/s)`. A total that turns out too small (an estimate) shows no time left.
 */
export function progressLine(
  label: string,
  done: number,
  elapsedMs: number,
  { total, unit = 'items' }: { total?: number; unit?: string } = {},
): string {
  const rate = done / Math.max(0.001, elapsedMs / 1000)
  const count = total === undefined ? number(done) : `${number(done)} of ${number(total)}`
  const left =
    total !== undefined && total >= done && rate > 0 ? `, ${duration((total - done) / rate)} left` : ''
  return `${label} ${count} ${unit} (${number(rate)}/s${left})`
}

export interface Progress {
  /** The count so far (and the total, when it is learned or changes): shown at most once a second. */
  update(done: number, total?: number): void
  /** The last count, shown whatever the time since the previous line. */
  end(done: number): void
}

/**
 * A progress reporter: a line at most every `everyMs` (redrawn in place on a terminal, one line each
 * time when stderr is a file or a pipe), and a last one at the end.
 */
export function progress(
  label: string,
  options: { total?: number; unit?: string; everyMs?: number; now?: () => number } = {},
): Progress {
  const now = options.now ?? Date.now
  const everyMs = options.everyMs ?? 1000
  const started = now()
  let total = options.total
  // The first count is shown at once: a person sees the command has started working.
  let shown = Number.NEGATIVE_INFINITY
  let last = ''
  const show = (done: number) => {
    last = progressLine(label, done, now() - started, { total, unit: options.unit })
    process.stderr.write(process.stderr.isTTY ? `\r${last}` : `${last}\n`)
  }
  return {
    update(done, newTotal) {
      if (newTotal !== undefined) total = newTotal
      if (now() - shown < everyMs) return
      shown = now()
      show(done)
    },
    end(done) {
      show(done)
      if (process.stderr.isTTY) process.stderr.write('\n')
    },
  }
}

/** A wait announced and counted down on stderr: `label: 12 s left`, once a second. */
export async function countdown(label: string, ms: number): Promise<void> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const left = until - Date.now()
    const line = `${label}: ${duration(left / 1000)} left`
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`)
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, left)))
  }
  if (process.stderr.isTTY && ms > 0) process.stderr.write('\n')
}
