import { constants, createHmac, type KeyObject, privateDecrypt, publicEncrypt } from 'node:crypto'

/**
 * The authority's QR text: Base64( RSA PKCS#1 v1.5 encrypt( public key, compact JSON
 * `{"irn":"<IRN>.<unix seconds>","certificate":"<certificate>"}` ) ) (CONTRACT section 5).
 */

/** PKCS#1 v1.5 needs 11 bytes of padding: one RSA-2048 block carries at most 256 - 11 bytes. */
export const MAX_PLAINTEXT_BYTES = 245

export interface QrPayload {
  irn: string
  /** Unix seconds, appended to the IRN after a dot. */
  timestamp: number
  certificate: string
}

/** The compact JSON, key order as the authority's form. */
export const plaintextOf = (payload: QrPayload): Buffer =>
  Buffer.from(
    JSON.stringify({ irn: `${payload.irn}.${payload.timestamp}`, certificate: payload.certificate }),
    'utf8',
  )

export function encryptPayload(publicKey: KeyObject, plaintext: Buffer): string {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, plaintext).toString('base64')
}

/**
 * encryptPayload with its padding made from the plaintext instead of drawn at random: the nonzero
 * padding bytes PKCS#1 v1.5 asks for are HMAC-SHA-256 blocks of the plaintext under `paddingKey`
 * (zero bytes skipped), so one plaintext always gives one text, which any PKCS#1 v1.5 decryption
 * opens as it opens encryptPayload's. The key is the service's secret: without it nobody can make
 * the padding, so nobody can test a guessed plaintext against a text; what the text shows is only
 * that two texts hold the same plaintext, which for an invoice's QR (its IRN, signing time and
 * certificate) is what the same document printed twice shows anyway.
 */
export function encryptPayloadStable(publicKey: KeyObject, plaintext: Buffer, paddingKey: Buffer): string {
  const size = (publicKey.asymmetricKeyDetails?.modulusLength ?? 2048) / 8
  const padding = Buffer.alloc(size - 3 - plaintext.length)
  if (padding.length < 8) throw new Error(`QR plaintext over ${size - 11} bytes`)
  for (let block = 0, filled = 0; filled < padding.length; block++) {
    const bytes = createHmac('sha256', paddingKey).update(String(block)).update(plaintext).digest()
    for (const byte of bytes) if (byte !== 0 && filled < padding.length) padding[filled++] = byte
  }
  // EME-PKCS1-v1_5: 0x00 0x02, the padding, 0x00, the message; below the modulus, as 0x00 leads.
  const encoded = Buffer.concat([Buffer.from([0, 2]), padding, Buffer.from([0]), plaintext])
  return publicEncrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, encoded).toString('base64')
}

/**
 * The plaintext of a QR text, or undefined for anything that is not one of ours. Every failure looks
 * the same to the caller: with OpenSSL 3.2+ a bad padding decrypts to random bytes (implicit
 * rejection) that then fail as JSON, so the endpoint is no padding oracle.
 */
export function decryptQrText(privateKey: KeyObject, text: string): Buffer | undefined {
  const trimmed = text.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || trimmed.length % 4 !== 0) return undefined
  const block = Buffer.from(trimmed, 'base64')
  if (block.length !== 256) return undefined
  try {
    return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, block)
  } catch {
    // Runtimes whose OpenSSL lacks implicit rejection refuse PKCS#1 v1.5 decryption outright
    // (CVE-2023-46809): decrypt raw and remove the padding here instead.
    try {
      return unpadType2(privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, block))
    } catch {
      return undefined
    }
  }
}

/** EME-PKCS1-v1_5 decoding: 0x00 0x02, at least 8 non-zero padding bytes, 0x00, the message. */
function unpadType2(block: Buffer): Buffer | undefined {
  if (block[0] !== 0x00 || block[1] !== 0x02) return undefined
  const separator = block.indexOf(0x00, 2)
  if (separator < 10) return undefined
  return block.subarray(separator + 1)
}

/** Parses a decrypted plaintext back into the payload, or undefined when it is not the authority's form. */
export function parsePlaintext(plaintext: Buffer): QrPayload | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(plaintext.toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const { irn, certificate } = parsed as { irn?: unknown; certificate?: unknown }
  if (typeof irn !== 'string' || typeof certificate !== 'string') return undefined
  const match = /^(.+)\.(\d{1,12})$/.exec(irn)
  if (!match) return undefined
  return { irn: match[1]!, timestamp: Number(match[2]), certificate }
}
