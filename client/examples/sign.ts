/**
 * Signing a request in TypeScript with nothing but node:crypto (CONTRACT sections 2 and 6), the
 * algorithm spelled out; `@ng-einvoicing/client` does the same in `signAreaA` and `signAreaB`.
 *
 *   printf %s "$BODY" | SIGNING_SECRET=... node sign.ts A|B METHOD TARGET [TIMESTAMP [NONCE]]
 *
 * The body comes on stdin, exactly the bytes you send (</dev/null for none); TARGET is the path plus
 * `?query` exactly as sent. Prints the headers to send, one `name: value` a line; add your x-api-key
 * (Area A) or `Authorization: Bearer <token>` (Area B). Checked against docs/signing-vectors.json by
 * test/unit/client/examples.test.ts.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'

const [area, method, target, timestamp = new Date().toISOString().slice(0, 19) + 'Z', nonce] =
  process.argv.slice(2)
const secret = process.env.SIGNING_SECRET
if ((area !== 'A' && area !== 'B') || !method || !target || !secret) {
  console.error('usage: SIGNING_SECRET=... node sign.ts A|B METHOD TARGET [TIMESTAMP [NONCE]] < body')
  process.exit(2)
}

const body = readFileSync(0) // stdin: the exact bytes sent
const bodyHash = createHash('sha256').update(body).digest('hex') // of zero bytes for no body
const xNonce = nonce ?? randomBytes(16).toString('hex')
const lines =
  area === 'A'
    ? [method.toUpperCase(), target, timestamp, bodyHash]
    : [method.toUpperCase(), target, timestamp, xNonce, bodyHash]
const canonical = lines.join('\n') // no trailing newline
const signature = createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonical, 'utf8').digest('base64')

if (area === 'A') {
  console.log(`x-api-timestamp: ${timestamp}`)
  console.log(`x-api-signature: ${signature}`)
} else {
  console.log(`X-Timestamp: ${timestamp}`)
  console.log(`X-Nonce: ${xNonce}`)
  console.log(`X-Signature: ${signature}`)
}
