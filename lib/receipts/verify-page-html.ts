import { lagosDateTime } from '#lib/platform/time.ts'
import type { ReceiptCheck } from './verify-page-lookup.ts'

/**
 * The public verification page of a receipt (CONTRACT 23), opened by a phone camera from the
 * receipt's QR: plain HTML, a few hundred bytes of inline style and no script, so it renders at once
 * on a cheap phone on a slow network. It shows what the printed receipt shows (IRN, device, counter)
 * and the service's answer: genuine or not, the device's status when it signed, reported or not yet.
 * No business name, no amounts, no other receipt: a QR found on the floor reveals nothing more.
 */

/** No script, no frame, nothing fetched: the page's one style is inline. */
export const VERIFY_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

const htmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const when = (iso: string) => `${lagosDateTime(new Date(iso))} (Lagos)`

const VERDICTS: Record<
  ReceiptCheck['verdict'],
  { title: string; tone: 'ok' | 'bad' | 'wait'; says: string }
> = {
  GENUINE: {
    title: 'Genuine receipt',
    tone: 'ok',
    says: "The shop's registered device signed this receipt, and the tax authority's service holds it as reported.",
  },
  NOT_GENUINE: {
    title: 'Not genuine',
    tone: 'bad',
    says: 'This code does not match a receipt signed by a registered device. Ask the shop for a proper receipt.',
  },
  NOT_MATCHING: {
    title: 'Does not match',
    tone: 'bad',
    says: 'The device reported a different receipt under this number. Ask the shop about this receipt.',
  },
  NOT_YET_REPORTED: {
    title: 'Not reported yet',
    tone: 'wait',
    says: 'The shop has not reported this receipt yet: shops have 24 hours after the sale. Its signature can be checked once it is reported: look again later.',
  },
}

const TONES = { ok: '#0a6b2d', bad: '#a1121a', wait: '#8a5a00' }

function rows(check: ReceiptCheck): [string, string][] {
  const out: [string, string][] = [
    ['IRN', check.irn],
    ['Device', check.device_id],
    ['Receipt number', String(check.counter)],
  ]
  if (check.issued_at) out.push(['Issued', when(check.issued_at)])
  const device = check.device
  if (!device) out.push(['Device status', 'No registered device has this id'])
  else if (device.status_at_issue)
    out.push([
      'Device when it signed',
      device.status_at_issue === 'ACTIVE' ? 'Active (registered)' : 'Revoked',
    ])
  else if (device.revoked_at) out.push(['Device status', `Revoked on ${when(device.revoked_at)}`])
  else out.push(['Device status', 'Active (registered)'])
  if (check.reported_at)
    out.push(['Reported', `${check.late ? 'Reported late' : 'Reported'} on ${when(check.reported_at)}`])
  else if (check.verdict === 'NOT_YET_REPORTED') out.push(['Reported', 'Not yet'])
  return out
}

/** The page for a receipt's check. */
export function verifyPage(check: ReceiptCheck): string {
  const verdict = VERDICTS[check.verdict]
  const table = rows(check)
    .map(([name, value]) => `<tr><th>${htmlText(name)}</th><td>${htmlText(value)}</td></tr>`)
    .join('')
  const test = check.mode === 'test' ? '<p class="test">TEST - NOT A TAX RECEIPT</p>' : ''
  return page(
    verdict.title,
    `${test}<h1 class="${verdict.tone}">${htmlText(verdict.title)}</h1><p>${htmlText(verdict.says)}</p><table>${table}</table>`,
  )
}

/** The page for a link that is not a receipt's QR of this service. */
export const notAReceiptPage = () =>
  page(
    'Not a receipt code',
    '<h1 class="bad">Not a receipt code</h1><p>This link is not a receipt code of this service: scan the QR code on the receipt again.</p>',
  )

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${htmlText(title)}</title><style>body{font:16px/1.4 sans-serif;margin:1em auto;max-width:36em;padding:0 1em;color:#111}h1{font-size:1.5em}.ok{color:${TONES.ok}}.bad{color:${TONES.bad}}.wait{color:${TONES.wait}}.test{background:#ffe08a;padding:.3em;font-weight:bold}table{border-collapse:collapse}th,td{text-align:left;padding:.2em .6em .2em 0;vertical-align:top;word-break:break-all}th{font-weight:normal;color:#555}</style></head><body>${body}</body></html>`
