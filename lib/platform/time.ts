/**
 * Time in the forms the interface uses. Nigeria (Africa/Lagos) is UTC+1 all year with no daylight
 * saving, so a fixed offset is exact and cheaper than Intl on every request.
 */
const LAGOS_OFFSET_MS = 60 * 60 * 1000

/** `YYYY-MM-DD HH:MM:SS` in Lagos time (Area C and D timestamps). */
export function lagosDateTime(at: Date = new Date()): string {
  return new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ')
}

/** `YYYY-MM-DDTHH:MM:SS.sss` in Lagos time with no zone (Area C's completedAt and date filters). */
export function lagosLocalIso(at: Date): string {
  return new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 23)
}

/** `YYYY-MM-DD`: the Lagos calendar day of an ISO 8601 instant (a receipt's issue day). */
export function lagosDay(iso: string): string {
  return new Date(Date.parse(iso) + LAGOS_OFFSET_MS).toISOString().slice(0, 10)
}

/** `YYYYMMDD` of the day it is in Lagos (the default IRN date). */
export function lagosDateStamp(at: Date = new Date()): string {
  return new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '')
}

/** Parses a zone-less Lagos local date-time (`YYYY-MM-DDTHH:MM[:SS[.fff]]`) into an instant. */
export function parseLagosLocal(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(value)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s = '0', frac = '0'] = match
  const ms = Number(frac.padEnd(3, '0').slice(0, 3))
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms)
  const check = new Date(utc)
  // Date.UTC rolls 2026-02-30 over to March: a date that does not exist is refused, not moved.
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23) {
    return undefined
  }
  return new Date(utc - LAGOS_OFFSET_MS)
}

/**
 * A Lagos local date-time (`2026-01-23T11:00:00.000`) as ISO 8601 with its offset and no fraction,
 * `2026-01-23T11:00:00+01:00`: what the finance exports write (CONTRACT 20), so a spreadsheet or an
 * accounting tool reads the instant without knowing our zone, and the Lagos calendar day, the day the
 * merchant's books and statements use, is the first ten characters as it stands.
 */
export function lagosWithOffset(local: string): string {
  return `${local.slice(0, 19)}+01:00`
}
