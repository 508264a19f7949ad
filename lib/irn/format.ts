/**
 * The IRN (A.6): `<invoice_number>-<service_id>-<YYYYMMDD>`, letters and digits, hyphen, letters and
 * digits, hyphen, 8 digits. The invoice number may not contain a hyphen, so an IRN splits one way only.
 */
export const IRN_PATTERN = /^[A-Za-z0-9]+-[A-Za-z0-9]+-\d{8}$/

export interface IrnParts {
  invoiceNumber: string
  serviceId: string
  /** YYYYMMDD */
  date: string
}

export const buildIrn = (parts: IrnParts): string => `${parts.invoiceNumber}-${parts.serviceId}-${parts.date}`

export function parseIrn(irn: string): IrnParts | undefined {
  if (!IRN_PATTERN.test(irn)) return undefined
  const [invoiceNumber, serviceId, date] = irn.split('-') as [string, string, string]
  return { invoiceNumber, serviceId, date }
}

/** `YYYYMMDD` naming a day that exists (20260230 does not). */
export function isRealDateStamp(stamp: string): boolean {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(stamp)
  if (!match) return false
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}
