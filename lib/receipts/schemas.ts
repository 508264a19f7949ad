import * as z from 'zod'

/** Request schemas of the device and receipt endpoints (CONTRACT 23). */

/** POST /api/v1/devices. The key's own rules (curve, `d` refused) are lib/receipts/device-keys.ts's. */
export const RegisterDeviceRequest = z.object({
  name: z.string().trim().min(1, 'name must name the device (1 to 100 characters)').max(100),
  public_key: z.record(z.string(), z.unknown(), {
    error:
      'public_key must be a public JWK object: {kty: "OKP", crv: "Ed25519", x} or {kty: "EC", crv: "P-256", x, y}',
  }),
})
export type RegisterDeviceRequest = z.output<typeof RegisterDeviceRequest>

export const DevicePath = z.object({ id: z.string().regex(/^dev_[0-9a-f]{32}$/, 'not a device id') })

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)

export const DevicesQuery = z.object({
  size: z.preprocess(
    blankIsAbsent,
    z.coerce
      .number({ error: 'size must be a whole number from 1 to 100' })
      .int('size must be a whole number from 1 to 100')
      .min(1, 'size must be a whole number from 1 to 100')
      .max(100, 'size must be a whole number from 1 to 100')
      .default(50),
  ),
  cursor: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .max(100, 'cursor is not one this API gave: use page.next_cursor of the previous reply')
      .optional(),
  ),
})

/** The most receipts one request reports (CONTRACT 23; the body limit may stop it sooner). */
export const MAX_RECEIPTS = 1000

/**
 * POST /api/v1/receipts: each receipt is checked on its own (lib/receipts/receipt-shape.ts), so one
 * malformed receipt is REJECTED in its place and never refuses the others.
 */
export const ReportReceiptsRequest = z.object({
  receipts: z
    .array(z.unknown())
    .min(1, 'receipts must hold at least one receipt')
    .max(MAX_RECEIPTS, `receipts holds at most ${MAX_RECEIPTS} receipts: send the rest in another request`),
})
