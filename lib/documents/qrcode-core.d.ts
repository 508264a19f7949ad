/**
 * qrcode's encoder alone (`create`), without the PNG, SVG and terminal renderers its main module loads
 * with it: the invoice PDF draws the modules itself, and the PNG renderer's pngjs is 30 KB of bundle.
 * The types are @types/qrcode's for the same function.
 */
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeOptions, QRCodeSegment } from 'qrcode'
  export function create(text: string | QRCodeSegment[], options?: QRCodeOptions): QRCode
}
