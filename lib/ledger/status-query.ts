import { type Key, keys } from '#lib/platform/db/keys.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { neverReceived, type Reply } from './decisions.ts'
import {
  type BankRequestRecord,
  type BankSessionRecord,
  getBankRequest,
  getBankSession,
  type NotReceivedRecord,
  type SessionNotReceived,
} from './repository.ts'
import type { StatusQueryRequest } from './schemas.ts'
import { refused } from './service.ts'

/**
 * The transaction status query (CONTRACT 24): a switch that timed out asks what became of a
 * requestId or a sessionId. The first reply is stored in the request record, and copied into the
 * session id's record, each written in the same transaction as the money moves, so the answer is ONE
 * consistent GetItem: the first reply, every field unchanged (the reply record gives it the query's
 * own traceId and timestamp), plus `queriedAt`. A transfer is final when its transaction commits or
 * fails, so no answer is "pending".
 *
 * An id with no record answers 25 (RJCT AG09), and that answer is final: it is recorded at the
 * record's own key (one conditional put), so an original arriving afterwards with that requestId or
 * sessionId collides with it and is refused with the same 25 (lib/ledger/decisions.ts replayOf and
 * sessionRefusal), never debited.
 */

/** How long a "never received" is kept: the records' own 400 days (CONTRACT 24). */
const NOT_RECEIVED_DAYS = 400

type Found = BankRequestRecord | BankSessionRecord

export async function statusQuery(switchClientId: string, body: StatusQueryRequest): Promise<Reply> {
  const { key, read, field } =
    body.sessionId === undefined
      ? {
          key: keys.bankRequest(switchClientId, body.requestId!),
          read: () => getBankRequest(switchClientId, body.requestId!),
          field: { requestId: body.requestId! },
        }
      : {
          key: keys.bankSession(switchClientId, body.sessionId),
          read: () => getBankSession(switchClientId, body.sessionId!),
          field: { sessionId: body.sessionId },
        }
  const found: Found | undefined = await read()
  if (found) return answerOf(found)

  const queriedAtMs = Date.now()
  const record: NotReceivedRecord | SessionNotReceived = {
    kind: 'NOT_RECEIVED',
    switchClientId,
    ...field,
    queriedAt: new Date(queriedAtMs).toISOString(),
    // The table's TTL attribute (lib/platform/db/table.ts).
    expiresAt: Math.floor(queriedAtMs / 1000) + NOT_RECEIVED_DAYS * 86_400,
  }
  if (await putFinal(key, record, 'requestId' in field)) throw refused(neverReceived(record))
  // The original (or another query) committed between the read and the put: answer what it left.
  const winner: Found | undefined = await read()
  if (!winner) throw new Error(`The record of ${JSON.stringify(field)} vanished after its put failed`)
  return answerOf(winner)
}

async function putFinal(key: Key, record: object, ofRequest: boolean): Promise<boolean> {
  const entity = ofRequest ? 'BANK_REQUEST_NOT_RECEIVED' : 'BANK_SESSION_NOT_RECEIVED'
  const { written } = await writeIf({
    Put: { Item: { ...key, entity, ...record }, ConditionExpression: 'attribute_not_exists(pk)' },
  })
  return written
}

function answerOf(record: Found): Reply {
  if (record.kind === 'NOT_RECEIVED') throw refused(neverReceived(record))
  return { ...record.reply, queriedAt: new Date().toISOString() }
}
