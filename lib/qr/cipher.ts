import { constants, type KeyObject, privateDecrypt, publicEncrypt } from 'node:crypto'

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
