/**
 * When a failed delivery is tried again (CONTRACT section 11). The default is Standard Webhooks'
 * suggested schedule after the immediate attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (27 h 35 min
 * in all, so a receiver may be down for a full day). WEBHOOK_RETRY_SCHEDULE replaces it, e.g. `1s,2s,4s`
 * locally. Each wait gets +-20 % jitter so that receivers that came back are not hit by every
 * retry of an outage at the same instant.
 */
export const DEFAULT_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h'
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

export function parseSchedule(text: string): number[] {
  const waits = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(part)
      if (!match) throw new Error(`WEBHOOK_RETRY_SCHEDULE: "${part}" is not a wait like 5s, 30m or 2h`)
      return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!)
    })
  if (!waits.length) throw new Error('WEBHOOK_RETRY_SCHEDULE is empty: give at least one wait, e.g. 5s')
  return waits
}

let cached: { text: string; waits: number[] } | undefined
/** The waits between attempts, from WEBHOOK_RETRY_SCHEDULE or the default. */
export function retrySchedule(env: NodeJS.ProcessEnv = process.env): number[] {
  const text = env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_SCHEDULE
  if (cached?.text !== text) cached = { text, waits: parseSchedule(text) }
  return cached.waits
}

/**
 * The wait before the next attempt after `failedInRound` failures in this round (1 = the first
 * attempt failed), or undefined when the schedule is used up.
 */
export function nextWaitMs(
  failedInRound: number,
  waits = retrySchedule(),
  random = Math.random,
): number | undefined {
  const base = waits[failedInRound - 1]
  if (base === undefined) return undefined
  return Math.round(base * (0.8 + 0.4 * random()))
}
