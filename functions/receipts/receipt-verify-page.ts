import { parseReceiptVerifyUrl } from '#client/receipts/verify-url.ts'
import { noAuth } from '#lib/platform/auth/authenticate.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { notAReceiptPage, VERIFY_PAGE_CSP, verifyPage } from '#lib/receipts/verify-page-html.ts'
import { checkReceipt } from '#lib/receipts/verify-page-lookup.ts'
import { receiptVerifyPage } from '#lib/service/endpoints/receipts-public.ts'

/**
 * GET /verify/r/{device_id}/{counter}?h=&s=&i=: the page a receipt's QR opens (CONTRACT 23), public.
 * A minute's caching lets a phone's back button and a shared link cost nothing, and a receipt that
 * becomes reported shows so within the minute.
 */
export const handler = apiHandler(receiptVerifyPage, noAuth, async ({ event }) => {
  const headers = { 'content-security-policy': VERIFY_PAGE_CSP, 'cache-control': 'public, max-age=60' }
  const fields = parseReceiptVerifyUrl(
    event.rawQueryString ? `${event.rawPath}?${event.rawQueryString}` : event.rawPath,
  )
  if (!fields)
    return { status: 400, headers, raw: { contentType: 'text/html; charset=utf-8', body: notAReceiptPage() } }
  const check = await checkReceipt(fields)
  return {
    status: check.device ? 200 : 404,
    headers,
    raw: { contentType: 'text/html; charset=utf-8', body: verifyPage(check) },
  }
})
