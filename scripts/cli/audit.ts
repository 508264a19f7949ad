import { type AuditEvent, auditOfBusiness, auditOfInvoice } from '#lib/platform/audit/trail.ts'
import type { Command } from './command.ts'
import { required } from './require.ts'

/** One line per event: time, type, actor, subject, status change, details. */
export function formatEvent(event: AuditEvent): string {
  const change = event.before || event.after ? ` ${event.before ?? '-'} -> ${event.after ?? '-'}` : ''
  const detail = event.detail ? ` ${JSON.stringify(event.detail)}` : ''
  return `${event.at}  ${event.type.padEnd(22)} ${event.actor}  ${event.subject.kind}:${event.subject.id}${change}${detail}`
}

function print(events: AuditEvent[], what: string, json: boolean) {
  // The count first: a person reads how many before the lines themselves.
  console.log(`${events.length} event${events.length === 1 ? '' : 's'} for ${what}`)
  if (json) {
    for (const event of events) console.log(JSON.stringify(event))
  } else {
    for (const event of events) console.log(formatEvent(event))
  }
  // Nothing recorded is almost always a mistyped id: say so, and fail like grep finding nothing.
  if (!events.length) {
    console.error(`No events are recorded for ${what}: check the id (an IRN ends in its issue date).`)
    process.exitCode = 1
  }
}

const invoiceHelp = `audit invoice: every recorded state change of one invoice, oldest first (generated, validated,
signed, transmitted, payment status), with who made it.

Options:
  --irn IRN     the invoice's IRN (required)
  --json        one JSON object per event instead of a table line

Example: npm run cli -- audit invoice --irn INV0002-94ND90NR-20261121   (docs/examples/invoice-v2.json, once signed)`

const businessHelp = `audit business: every recorded event of one business, oldest first: its invoices' state changes
and its credentials issued, rotated or revoked.

Options:
  --id BUSINESS_ID   (required)
  --json             one JSON object per event instead of a table line

Example: npm run cli -- audit business --id 11111111-1111-4111-8111-111111111111`

export const commands: Command[] = [
  {
    name: 'audit invoice',
    summary: "print an invoice's audit trail in time order",
    help: invoiceHelp,
    options: { irn: { type: 'string' }, json: { type: 'boolean' } },
    async run(v) {
      const irn = required(v, 'irn', invoiceHelp)
      print(await auditOfInvoice(irn), `invoice ${irn}`, v.json === true)
    },
  },
  {
    name: 'audit business',
    summary: "print a business's audit trail (invoices and credentials) in time order",
    help: businessHelp,
    options: { id: { type: 'string' }, json: { type: 'boolean' } },
    async run(v) {
      const id = required(v, 'id', businessHelp)
      print(await auditOfBusiness(id), `business ${id}`, v.json === true)
    },
  },
]
