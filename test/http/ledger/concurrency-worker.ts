/**
 * Child process of concurrency.test.ts: runs transfers through the ledger service directly
 * against the table named in the environment, so that several processes contend for one merchant's
 * head and one account the way separate Lambda containers do (no shared in-process queue).
 *
 *   tsx test/http/ledger/concurrency-worker.ts <merchantId> <accountNumber> <count> <prefix>
 */
import { TransferRequest } from '#lib/ledger/schemas.ts'
import { transfer } from '#lib/ledger/service.ts'

const [merchantId, accountNumber, count, prefix] = process.argv.slice(2) as [string, string, string, string]
const codes = await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const body = TransferRequest.parse({
      requestId: `${prefix}-${i}`,
      stan: '500000',
      processingCode: '400000',
      merchantId,
      merchantReference: `${prefix}-ORDER-${i}`,
      accountNumber,
      amount: 50,
      currency: 'NGN',
      productCode: 'MULTI',
    })
    // A busy account past the retry budget is refused with nothing recorded (96, "retry with the same
    // requestId"): retried as a switch does, so the outcome counted is each request's final one.
    let last = ''
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return (await transfer('dev-switch', body)).responseCode as string
      } catch (error) {
        last = `error: ${(error as Error).message}`
      }
    }
    return last
  }),
)
process.stdout.write(JSON.stringify(codes))
