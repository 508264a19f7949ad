import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { Caller } from '#lib/platform/auth/caller.ts'
import { refused } from '#lib/platform/auth/refusal.ts'
import type { Route } from '#lib/platform/http/route.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { isConditionFailed } from '#lib/platform/db/errors.ts'
import { Forbidden, invalid } from '#lib/platform/errors.ts'
import { currentMode } from '#lib/platform/mode.ts'

/**
 * The test clock (CONTRACT section 15). Test-mode time is the real time plus an offset that only
 * grows: `POST /api/v1/test/clock/advance` adds to it, nothing takes from it, so test time never runs
 * backwards and every instant the service stored stays in the past.
 *
 * Owners: each Area A business has its own clock (its webhook retries and their final failure, its
 * Idempotency-Key expiry). Areas B and C share one clock, the sandbox bank's (`bank`): a test transfer
 * is stamped with it, so the Lagos day of a test transfer, and so the merchant statement it counts in,
 * is the bank's test-mode day. A business's advance does not move the bank's: a merchant is paid by
 * every switch, not by one business.
 *
 * Live work never reads a clock (it is the real time, at no cost); test work that needs the time reads
 * its owner's clock item, one GetItem, beside a read it makes anyway where it can.
 */
export type ClockOwner = { business: string } | 'bank'

/** The most one advance may move a clock: a month, so a typo cannot throw a sandbox a century ahead. */
export const MAX_ADVANCE_SECONDS = 30 * 24 * 60 * 60

/**
 * The most a clock may move in all (CONTRACT 18): 10 years of 365 days. Far enough for any schedule
 * the service keeps (retries, expiries, statements), and far from where dates stop being what they
 * say (past year 9999 ISO strings garble, past 8.64e15 ms a Date is invalid and every test transfer
 * would fail for good).
 */
export const MAX_TOTAL_OFFSET_SECONDS = 10 * 365 * 24 * 60 * 60

const ownerId = (owner: ClockOwner) => (owner === 'bank' ? 'BANK' : `BUSINESS#${owner.business}`)

/** The clock item's key (for callers that read it in a batch with their own items). */
export const clockKey = (owner: ClockOwner) => keys.testClock(ownerId(owner))

/** The offset a stored clock item holds; 0 when the clock was never moved. */
export const offsetOf = (item: Record<string, unknown> | undefined): number =>
  typeof item?.offsetMs === 'number' ? item.offsetMs : 0

/** How far the owner's test clock is ahead of the real time, in ms (strongly consistent: an advance is seen at once). */
export async function clockOffsetMs(owner: ClockOwner): Promise<number> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: clockKey(owner), ConsistentRead: true }),
  )
  return offsetOf(out.Item)
}

/**
 * Moves the owner's test clock forward by `seconds`; answers the new offset. Test mode only. An
 * advance that would take the clock past MAX_TOTAL_OFFSET_SECONDS in all is refused (400
 * TEST_CLOCK_LIMIT) and moves nothing: the bound is the update's condition, so concurrent advances
 * cannot pass it together.
 */
export async function advanceClock(owner: ClockOwner, seconds: number): Promise<number> {
  if (currentMode() !== 'test') throw new Error('advanceClock outside test mode: live time is the real time')
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: clockKey(owner),
        UpdateExpression: 'SET updatedAt = :at, entity = :entity ADD offsetMs :ms',
        ConditionExpression: 'attribute_not_exists(offsetMs) OR offsetMs <= :room',
        ExpressionAttributeValues: {
          ':at': new Date().toISOString(),
          ':entity': 'TEST_CLOCK',
          ':ms': seconds * 1000,
          ':room': (MAX_TOTAL_OFFSET_SECONDS - seconds) * 1000,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    )
    return offsetOf(out.Attributes)
  } catch (error) {
    if (!isConditionFailed(error)) throw error
    const ahead = Math.floor((await clockOffsetMs(owner)) / 1000)
    throw invalid(
      [
        {
          path: 'seconds',
          code: 'TEST_CLOCK_LIMIT',
          message: `A test clock moves at most ${MAX_TOTAL_OFFSET_SECONDS} s (10 years) in all; this one is ${ahead} s ahead, so it can move at most ${Math.max(0, MAX_TOTAL_OFFSET_SECONDS - ahead)} s more. Its business (or the sandbox bank) keeps its test data: use dates within that range`,
        },
      ],
      'The test clock cannot move that far',
    )
  }
}

/**
 * The clock endpoints answer test-mode credentials only: a live one gets 403, saying why, logged as a
 * refusal (`mode_forbidden`) as every credential's refusal is.
 */
export function testModeOnly(context: { caller: Caller; route: Route }): void {
  const { caller, route } = context
  if ('mode' in caller && caller.mode === 'test') return
  throw refused(
    { route },
    'mode_forbidden',
    new Forbidden(
      'The test clock exists in test mode only, and this credential is a live one: use its test-mode twin',
    ),
    keyIdOf(caller),
  )
}

const keyIdOf = (caller: Caller) =>
  caller.scheme === 'api-signature'
    ? caller.apiKeyId
    : caller.scheme === 'switch-signature'
      ? caller.switchClientId
      : undefined

/** The clock as the endpoints show it. */
export const clockView = (offsetMs: number) => ({
  test_time: new Date(Date.now() + offsetMs).toISOString(),
  offset_seconds: Math.floor(offsetMs / 1000),
})
