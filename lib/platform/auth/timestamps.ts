/** Timestamp rules shared by both signature schemes: exact formats, real dates, a 5-minute window. */

export const WINDOW_SECONDS = 300

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

function parse(value: string, requireZ: boolean): Date | undefined {
  const m = RFC3339.exec(value)
  if (!m) return undefined
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[]
  if (requireZ && zone !== 'Z') return undefined
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number]
  const utc = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]))
  // A date that does not exist (2026-02-30, 25:00) is refused, not rolled over.
  if (
    utc.getUTCFullYear() !== parts[0] ||
    utc.getUTCMonth() !== parts[1] - 1 ||
    utc.getUTCDate() !== parts[2]
  )
    return undefined
  if (parts[3] > 23 || parts[4] > 59 || parts[5] > 59) return undefined
  let ms = utc.getTime() + (frac ? Math.floor(Number(`0${frac}`) * 1000) : 0)
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number]
    if (zh > 23 || zm > 59) return undefined
    ms -= sign * (zh * 60 + zm) * 60_000
  }
  return new Date(ms)
}

/** Area A: RFC 3339 / ISO 8601 with `Z` or an offset, optional fraction. */
export const parseZonedTimestamp = (value: string) => parse(value, false)

/** Area B: UTC with `Z` only (`YYYY-MM-DDTHH:MM:SS[.fff]Z`). */
export const parseUtcTimestamp = (value: string) => parse(value, true)

/**
 * Within 5 minutes of the server clock either way, compared in milliseconds (CONTRACT section 9):
 * exactly 300.000 s away is accepted, 300.001 s is not. Never rounded to whole seconds, which let a
 * timestamp up to 300.999 s ahead through.
 */
export function withinWindow(at: Date, now = Date.now()): boolean {
  return Math.abs(now - at.getTime()) <= WINDOW_SECONDS * 1000
}
