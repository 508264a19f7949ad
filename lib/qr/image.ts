import QRCode, { type QRCodeToBufferOptions } from 'qrcode'

/**
 * The QR image: a PNG of the QR text. Error correction M (15 %) survives a printed invoice's wear; a
 * 344-character Base64 text then fits a version 13 symbol, about 300 px at the default scale.
 * PNG rows are filtered with "Up" only: a QR image is runs of identical rows, and pngjs's default of
 * trying all five filters per row costs 2-3x the time for about half the bytes (bench/qr.ts).
 */
const OPTIONS = { errorCorrectionLevel: 'M', margin: 4, scale: 4 } as const
// pngjs's own option: qrcode hands rendererOpts to pngjs as is; @types/qrcode declares only the deflate ones.
const PNG_RENDERER = { filterType: 2 } as NonNullable<QRCodeToBufferOptions['rendererOpts']>

export interface QrImage {
  /** `data:image/png;base64,...` */
  dataUrl: string
  /** The same PNG's bytes, base64 (OpenAPI `format: byte`). */
  base64: string
}

export async function qrPng(text: string): Promise<QrImage> {
  const png = await QRCode.toBuffer(text, { ...OPTIONS, type: 'png', rendererOpts: PNG_RENDERER })
  const base64 = png.toString('base64')
  return { dataUrl: `data:image/png;base64,${base64}`, base64 }
}

/** The PNG with pngjs's default filtering (not served; measured by bench/qr.ts against the served one). */
export const qrPngDefaultFilters = (text: string): Promise<Buffer> =>
  QRCode.toBuffer(text, { ...OPTIONS, type: 'png' })

/** The SVG form (not served; measured by bench/qr.ts against the PNG). */
export const qrSvg = (text: string): Promise<string> => QRCode.toString(text, { ...OPTIONS, type: 'svg' })
