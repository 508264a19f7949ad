import { keys } from '#lib/platform/db/keys.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { neverReceived, type Reply } from './decisions.ts'
import { type BankRequestRecord, getBankRequest, type NotReceivedRecord } from './repository.ts'
import type { StatusQueryRequest } from './schemas.ts'
import { refused } from './service.ts'

/**
 * The transaction status query (CONTRACT 24): a switch that timed out asks what became of a
 * requestId. The first reply is stored in the request record, written in the same transaction as the
 * money moves, so the answer is ONE consistent GetItem: the first reply, every field unchanged (the
 * reply record gives it the query's own traceId and timestamp), plus `queriedAt`. A transfer is final
 * when its transaction commits or fails, so no answer is "pending".
 *
 * A requestId with no record answers 25 (RJCT AG09), and that answer is final: it is recorded at the
 * request record's key (one conditional put), so an original arriving afterwards collides with it
 * and is refused with the same 25 (lib/ledger/decisions.ts replayOf), never debited.
 */

/** How long a "never received" is kept: the records' own 400 days (CONTRACT 24). */
const NOT_RECEIVED_DAYS = 400

export async function statusQuery(switchClientId: string, body: StatusQueryRequest): Promise<Reply> {
  const found = await getBankRequest(switchClientId, body.requestId)
  if (found) return answerOf(found)

  const queriedAtMs = Date.now()
  const record: NotReceivedRecord = {
    kind: 'NOT_RECEIVED',
    switchClientId,
    requestId: body.requestId,
    queriedAt: new Date(queriedAtMs).toISOString(),
    // The table's TTL attribute (lib/platform/db/table.ts).
    expiresAt: Math.floor(queriedAtMs / 1000) + NOT_RECEIVED_DAYS * 86_400,
  }
  const { written } = await writeIf({
    Put: {
      Item: {
        ...keys.bankRequest(switchClientId, body.requestId),
        entity: 'BANK_REQUEST_NOT_RECEIVED',
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  if (written) throw refused(neverReceived(record))
  // The original (or another query) committed between the read and the put: answer what it left.
  const winner = await getBankRequest(switchClientId, body.requestId)
  if (!winner) throw new Error(`The record of requestId ${body.requestId} vanished after its put failed`)
  return answerOf(winner)
}

function answerOf(record: BankRequestRecord): Reply {
  if (record.kind === 'NOT_RECEIVED') throw refused(neverReceived(record))
  return { ...record.reply, queriedAt: new Date().toISOString() }
}
