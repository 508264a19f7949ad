import { createHash } from 'node:crypto'
import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda'
import type { Caller } from '#lib/platform/auth/caller.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { isConditionFailed } from '#lib/platform/db/errors.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { Route } from '#lib/platform/http/route.ts'
import { BadRequest, Conflict } from '#lib/platform/errors.ts'
import type { ReplySealer } from './sealed-reply.ts'

/**
 * `Idempotency-Key` on POST and PATCH (CONTRACT section 5): the first reply is stored and a retry
 * with the same key gets it back instead of running the request again. The key is claimed with one
 * conditional put before the handler runs, so two concurrent retries cannot both run it; a record
 * past its expiry counts as absent (the retention is 24 hours, whatever the TTL sweeper's delay). Only
 * successful replies are kept; a failed attempt releases the key so the client can try again.
 * Read-only routes are naturally idempotent and skip this.
 *
 * A claim whose function dies (timeout, out of memory) never gets to release it: the claim records
 * when the function's own time runs out (`inProgressUntil`, ms: now + the invocation's remaining
 * time, Powertools' in-progress expiry), and after that the key is free again, not after 24 hours.
 */
const KEY_FORM = /^[\x21-\x7e]{1,128}$/
const RETENTION_SECONDS = 24 * 60 * 60
const IN_PROGRESS = 'IN_PROGRESS'

export interface IdempotencyClaim {
  key: { pk: string; sk: string }
  /** The record's expiry (s), which the parts of a large reply share. */
  expiresAt: number
  /** Seals the reply before it is stored: the route's reply carries a secret (Route.sealedReply). */
  sealer?: ReplySealer
}

function callerId(caller: Caller): string | undefined {
  switch (caller.scheme) {
    case 'api-signature':
      return `A#${caller.apiKeyId}`
    case 'switch-signature':
      return `B#${caller.switchClientId}`
    case 'merchant-bearer':
      return `C#${caller.merchantId}`
    case 'admin-bearer':
      return `D#${caller.adminKeyId}`
    default:
      return undefined
  }
}

/** Claims the key, or returns the stored first reply. Undefined when the request is not idempotent-keyed. */
export async function claimIdempotencyKey(
  route: Route,
  caller: Caller,
  event: APIGatewayProxyEventV2,
  rawBody: Buffer,
  /** The invocation's remaining time (Lambda's context.getRemainingTimeInMillis()). */
  remainingMs: number,
  /** Given for routes whose reply carries a secret: the stored reply is sealed with it. */
  sealer?: ReplySealer,
): Promise<{ claim?: IdempotencyClaim; replay?: APIGatewayProxyStructuredResultV2 } | undefined> {
  const header = event.headers['idempotency-key']
  if (header === undefined || !['POST', 'PATCH'].includes(route.method) || !route.writes) return undefined
  const id = callerId(caller)
  if (!id) return undefined
  if (!KEY_FORM.test(header))
    throw new BadRequest('Idempotency-Key must be 1 to 128 visible ASCII characters')
  // The route plus the SHA-256 of the concrete path: a path of any length (a hostile 4 KB path
  // parameter) still fits DynamoDB's 1 KB sort key, and two resources never share a key.
  const pathHash = createHash('sha256').update(event.rawPath).digest('hex')
  const key = keys.idempotency(id, `${route.method} ${route.path}#${pathHash}`, header)
  const requestHash = createHash('sha256').update(rawBody).digest('hex')
  const nowMs = Date.now()
  // Retention runs on real time in both modes (CONTRACT 18): a test clock moved years ahead must not
  // keep the record (and its TTL) for years, nor need a read of the clock on every keyed request.
  const now = Math.floor(nowMs / 1000)
  let existing: Record<string, unknown>
  try {
    // One conditional write decides: the key is free (never used, or used but past its expiry,
    // which DynamoDB's TTL may take days to delete), or the failed condition hands back the record
    // that holds it. No second round trip, and no window between a put and a get.
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          state: IN_PROGRESS,
          requestHash,
          expiresAt: now + RETENTION_SECONDS,
          inProgressUntil: nowMs + remainingMs,
        },
        // Free when never used, past its retention, or claimed by an invocation whose time is up.
        ConditionExpression:
          'attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :inProgress AND inProgressUntil <= :nowMs)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': now, ':nowMs': nowMs, ':inProgress': IN_PROGRESS },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    )
    return { claim: { key, expiresAt: now + RETENTION_SECONDS, ...(sealer ? { sealer } : {}) } }
  } catch (error) {
    if (!isConditionFailed(error)) throw error
    existing = heldBy(error)
  }
  if (existing.requestHash !== requestHash) {
    throw new Conflict('This Idempotency-Key was already used with a different request body: use a new key', {
      code: 'IDEMPOTENCY_KEY_REUSED',
    })
  }
  if (existing.state !== 'DONE') {
    const untilMs = typeof existing.inProgressUntil === 'number' ? existing.inProgressUntil : nowMs + 1000
    throw new Conflict('A request with this Idempotency-Key is still in progress: retry shortly', {
      code: 'IDEMPOTENCY_IN_PROGRESS',
      retryAfterSeconds: Math.max(1, Math.ceil((untilMs - nowMs) / 1000)),
    })
  }
  const stored = await storedResponse(key, existing)
  let response = stored
  if (existing.sealed) {
    if (!sealer) throw new Error(`${route.method} ${route.path} stored a sealed reply but has no sealer`)
    response = { ...stored, body: await sealer.open(String(stored.body ?? ''), key) }
  }
  return { replay: { ...response, headers: { ...response.headers, 'idempotent-replayed': 'true' } } }
}

/**
 * The record a failed claim returned (ALL_OLD). The document client does not unmarshall errors, so
 * the item arrives in DynamoDB's attribute-value form.
 */
function heldBy(error: unknown): Record<string, unknown> {
  const item = (error as { Item?: Record<string, AttributeValue> }).Item
  if (!item)
    throw new Error(
      'A failed idempotency claim returned no item: ReturnValuesOnConditionCheckFailure is required',
    )
  return unmarshall(item)
}

/**
 * A stored reply's body is kept in the record up to this many bytes, and beyond it in parts of this
 * size beside the record (CONTRACT 18: stored by reference). A reply of any size can then be kept,
 * so a request whose write committed never answers 500 because its reply did not fit DynamoDB's
 * 400 KB item; the claim's own attributes and the headers take the rest of the record's room.
 */
const PART_BYTES = 300_000

/** Where a large reply's part `i` is kept: a space, which no Idempotency-Key holds, ends the key. */
const partKey = (key: { pk: string; sk: string }, i: number) => ({ pk: key.pk, sk: `${key.sk} part ${i}` })

/** The stored reply, its body put together again from its parts when it was kept in parts. */
async function storedResponse(
  key: { pk: string; sk: string },
  record: Record<string, unknown>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const response = record.response as APIGatewayProxyStructuredResultV2
  const parts = typeof record.parts === 'number' ? record.parts : 0
  if (!parts) return response
  const bodies = await Promise.all(
    Array.from({ length: parts }, async (_, i) => {
      const out = await db().send(
        new GetCommand({ TableName: tableName(), Key: partKey(key, i), ConsistentRead: true }),
      )
      return Buffer.from(out.Item?.body as Uint8Array)
    }),
  )
  return { ...response, body: Buffer.concat(bodies).toString('utf8') }
}

export async function completeIdempotencyKey(
  claim: IdempotencyClaim,
  response: APIGatewayProxyStructuredResultV2,
) {
  const status = response.statusCode ?? 200
  if (status >= 200 && status < 300) {
    // A reply carrying a secret is stored sealed, never in plain text (CONTRACT section 14).
    const body = claim.sealer
      ? await claim.sealer.seal(String(response.body ?? ''), claim.key)
      : String(response.body ?? '')
    const bytes = Buffer.from(body, 'utf8')
    const parts = bytes.length > PART_BYTES ? Math.ceil(bytes.length / PART_BYTES) : 0
    // The parts first: the record says DONE only once every part of its reply is there.
    for (let i = 0; i < parts; i++) {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...partKey(claim.key, i),
            body: bytes.subarray(i * PART_BYTES, (i + 1) * PART_BYTES),
            expiresAt: claim.expiresAt,
          },
        }),
      )
    }
    const stored = { ...response, body: parts ? '' : body }
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: claim.key,
        UpdateExpression: 'SET #state = :done, #response = :response, sealed = :sealed, parts = :parts',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: {
          ':done': 'DONE',
          ':response': stored,
          ':sealed': Boolean(claim.sealer),
          ':parts': parts,
        },
      }),
    )
  } else {
    await releaseIdempotencyKey(claim)
  }
}

export async function releaseIdempotencyKey(claim: IdempotencyClaim) {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: claim.key }))
}
