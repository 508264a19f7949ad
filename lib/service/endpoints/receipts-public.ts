import * as z from 'zod'
import { DEVICE_BY_ID_PREFIX, RECEIPT_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { reads } from './common.ts'

/**
 * The public verification page of a B2C receipt (CONTRACT 23): the URL of the receipt's QR
 * (client/receipts/verify-url.ts), opened by any phone camera, with no credential. It is a GET of the
 * `reads` throttle group, so API Gateway holds it to that group's rate per route (infra/throttles.ts):
 * a scraper hammering it is throttled at the edge before a function runs, and each view it pays for
 * costs two reads and writes nothing (no replay, rate or audit item: nothing a stranger can fill).
 */
const publicPages = /* @__PURE__ */ endpointsOf({
  domain: 'receipts',
  // Beside the other public documents (the OpenAPI document and the docs page).
  stack: 'reference',
  area: 'A',
  auth: 'none',
  reply: 'record',
})

/**
 * Path and query are read leniently here and parsed by the QR URL's one parser in the handler, so a
 * mangled scan still gets a page a phone can show, not a JSON error.
 */
export const VerifyReceiptPath = z.object({
  device_id: z.string().max(200, 'device_id is too long to be a device id'),
  counter: z.string().max(40, 'counter is too long to be a receipt counter'),
})
const member = (name: string) =>
  z.string().max(200, `${name} is too long to belong to a receipt's QR code: scan it again`).optional()
export const VerifyReceiptQuery = z.object({ h: member('h'), s: member('s'), i: member('i') })

export const receiptVerifyPage = /* @__PURE__ */ publicPages({
  functionId: 'receipt-verify-page',
  routes: [{ method: 'GET', path: '/verify/r/{device_id}/{counter}' }],
  // The device by its id (which carries its mode), and the receipt at its counter (RCPT#).
  access: { table: [reads([DEVICE_BY_ID_PREFIX, RECEIPT_PREFIX])] },
  request: { params: VerifyReceiptPath, query: VerifyReceiptQuery },
})

export const receiptVerifyPageDocs = (): EndpointDocs => ({
  summary: "A receipt's public verification page (HTML)",
  description:
    "What a B2C receipt's QR code opens (`/verify/r/{device_id}/{counter}?h=<hash>&s=<signature>&i=<irn>`, built by the client's `receiptVerifyUrl`): no credentials, a small HTML page with no script. It says whether the receipt is genuine (the device reported a receipt with this hash, IRN and signature, whose signature the service checked against the device's registered key), the device's status when it signed, and whether and when the receipt was reported; before it is reported, the page says so (the QR carries the receipt's hash, not the bytes the device signed). It shows nothing the printed receipt does not: no business details, amounts or other receipts. Test-mode receipts are marked TEST. `POST /api/v1/resource/verify-qr` answers the same as JSON.",
  replies: () => ({
    200: {
      description: 'The page: genuine, not genuine, not matching or not yet reported',
      data: z.string(),
      mediaType: 'text/html',
    },
    400: {
      description: 'The link is not a receipt code of this service (an HTML page saying so)',
      data: z.string(),
      mediaType: 'text/html',
    },
    404: {
      description: 'No registered device has this id (an HTML page saying the receipt is not genuine)',
      data: z.string(),
      mediaType: 'text/html',
    },
    413: 'The request carries a body larger than 1 MiB (refused before anything else, as on every route)',
  }),
})
