import { STATUS_CODES } from 'node:http'

/**
 * `<code> <NAME>` as FirsErrorDetails.status wants it (e.g. `400 BAD_REQUEST`), from Node's own table
 * of standard reason phrases (100 to 511).
 */
export function statusLine(code: number): string {
  const phrase = STATUS_CODES[code] ?? 'UNKNOWN'
  const name = phrase
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
  return `${code} ${name}`
}
