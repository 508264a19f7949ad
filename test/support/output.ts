type Stream = 'stdout' | 'stderr'

export interface CapturedOutput {
  /** Every write, as written (a log line is one write: its JSON and a newline). */
  written: string[]
  /** The non-empty lines of the writes from the `from`th on. */
  lines(from?: number): string[]
  /** Puts the streams' own write back. */
  restore(): void
}

/**
 * Captures what this process writes to the streams (by default both: Powertools writes WARN and
 * ERROR to stderr, the rest to stdout), instead of printing it, until `restore()`: for tests that read
 * the log lines and metrics the server wrote.
 */
export function captureOutput(streams: readonly Stream[] = ['stdout', 'stderr']): CapturedOutput {
  const written: string[] = []
  const originals = streams.map((name) => [name, process[name].write] as const)
  for (const name of streams) {
    process[name].write = ((chunk: unknown) => {
      written.push(String(chunk))
      return true
    }) as typeof process.stdout.write
  }
  return {
    written,
    lines: (from = 0) => written.slice(from).flatMap((chunk) => chunk.split('\n').filter(Boolean)),
    restore: () => {
      for (const [name, write] of originals) process[name].write = write
    },
  }
}
