/**
 * QR code cost per generate-qr-code / verify-qr request: the RSA-2048 PKCS#1 v1.5 encryption of the
 * authority payload, its decryption (verify-qr), and the QR image as PNG (served) and SVG (for
 * comparison), each the median over many runs after a warm-up.
 *
 *   npx tsx bench/qr.ts
 */
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { cpus } from 'node:os'
import { newAuthorityKeyPem } from '../lib/qr/authority-key.ts'
import { decryptQrText, encryptPayload, plaintextOf } from '../lib/qr/cipher.ts'
import { qrPng, qrPngDefaultFilters, qrSvg } from '../lib/qr/image.ts'

const WARMUP = 20
const RUNS = Number(process.env.RUNS ?? 200)

async function median(name: string, fn: () => unknown | Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    await fn()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  return { name, median: at(0.5), p95: at(0.95) }
}

const privateKey = createPrivateKey(await newAuthorityKeyPem())
const publicKey = createPublicKey(privateKey)
// A realistic payload: a 17-character invoice number and the 64-character certificate a business gets.
const plaintext = plaintextOf({
  irn: 'INV0000001234ABCD-94ND90NR-20261121',
  timestamp: Math.floor(Date.now() / 1000),
  certificate: 'x'.repeat(64),
})
const text = encryptPayload(publicKey, plaintext)
const png = await qrPng(text)
const svg = await qrSvg(text)
const pngDefault = await qrPngDefaultFilters(text)

const results = [
  await median('RSA-2048 PKCS#1 v1.5 encrypt (generate-qr-code)', () => encryptPayload(publicKey, plaintext)),
  await median('RSA-2048 decrypt (verify-qr)', () => decryptQrText(privateKey, text)),
  await median('QR PNG, "Up" filter, base64 and data URL (served)', () => qrPng(text)),
  await median('QR PNG, pngjs default filters (not served)', () => qrPngDefaultFilters(text)),
  await median('QR SVG (not served; for comparison)', () => qrSvg(text)),
  await median('generate-qr-code work: encrypt + PNG', async () =>
    qrPng(encryptPayload(publicKey, plaintext)),
  ),
]

console.log(
  `QR code benchmark: node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${RUNS} runs each after ${WARMUP} warm-up`,
)
console.log(
  `payload ${plaintext.length} bytes -> QR text ${text.length} characters; PNG ${Buffer.from(png.base64, 'base64').length} bytes (default filters ${pngDefault.length}), SVG ${svg.length} bytes`,
)
console.log('')
console.log('| step | median ms | p95 ms |')
console.log('|---|---:|---:|')
for (const r of results) console.log(`| ${r.name} | ${r.median.toFixed(3)} | ${r.p95.toFixed(3)} |`)
