import jsQR from 'jsqr'
import { PNG } from 'pngjs'

/** Reads the QR code in a PNG (Base64) back to its text, as a phone's scanner would. */
export function scanQr(pngBase64: string): string {
  const png = PNG.sync.read(Buffer.from(pngBase64, 'base64'))
  const code = jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height)
  if (!code) throw new Error('no QR code found in the PNG')
  return code.data
}
