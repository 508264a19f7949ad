import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { randomUUID } from 'node:crypto'
import { db, tableName } from '#lib/platform/db/client.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { TTL_ATTRIBUTE } from '#lib/platform/db/table.ts'

/**
 * At most MAX_PER_HOST deliveries of each mode in flight to one destination host (CONTRACT sections 14
 * and 18), whoever's subscriptions they are for, however many delivery functions run: a host a tenant names is not
 * flooded by the service, and one slow host cannot take all of the delivery function's concurrency.
 *
 * Each host has MAX_PER_HOST slot items (`WHHOST#<host>`, `SLOT#0..9`). Taking a slot is one query of
 * the host's slots (one read unit: the items are tiny) and a conditional write on a free one (free =
 * never taken, or its lease has run out). Test mode's slots are other items (lib/platform/db/keys.ts), so
 * a sandbox burst to a host never holds a live delivery back. A lease outlives one attempt (5 s and its writes) but is
 * released as soon as the attempt is over; a worker that dies holding one frees it when it expires,
 * so a crash never shrinks a host's allowance for long. When every slot is held the attempt is not
 * made and its message comes back a little later (lib/webhooks/delivery-worker.ts): nothing is lost and the
 * attempt count does not move.
 *
 * Chosen over one counter item per host: a counter that a dead worker incremented stays high for
 * good, while a lease frees itself.
 */
export const MAX_PER_HOST = 10
export const LEASE_MS = 30_000

export interface HostLease {
  host: string
  slot: number
  holder: string
}

/** The host a lease is keyed by: the URL's host name, lower case, whatever the port (a host is one machine). */
export const hostOf = (url: string): string => new URL(url).hostname.toLowerCase()

export async function takeHostSlot(host: string, now = Date.now()): Promise<HostLease | undefined> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.webhookHostSlot(host, 0).pk },
    }),
  )
  const busy = new Set(
    (out.Items ?? [])
      .filter((item) => typeof item.until === 'number' && item.until >= now)
      .map((item) => Number(String(item.sk).slice('SLOT#'.length))),
  )
  const free = [...Array(MAX_PER_HOST).keys()].filter((slot) => !busy.has(slot))
  // Random order: concurrent workers that read the same free slots mostly pick different ones.
  free.sort(() => Math.random() - 0.5)
  const holder = randomUUID()
  for (const slot of free.slice(0, 3)) {
    const taken = await writeIf({
      Update: {
        Key: keys.webhookHostSlot(host, slot),
        // The item itself goes a day after its last use (DynamoDB's TTL): hosts come and go.
        UpdateExpression: 'SET #until = :until, holder = :holder, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#until) OR #until < :now',
        ExpressionAttributeNames: { '#until': 'until', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':until': now + LEASE_MS,
          ':holder': holder,
          ':now': now,
          ':ttl': Math.floor(now / 1000) + 86_400,
        },
      },
    })
    if (taken.written) return { host, slot, holder }
  }
  return undefined
}

/** Frees a slot this worker holds (a lease already taken over by another worker is left alone). */
export async function releaseHostSlot(lease: HostLease): Promise<void> {
  await writeIf({
    Update: {
      Key: keys.webhookHostSlot(lease.host, lease.slot),
      UpdateExpression: 'REMOVE #until, holder',
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':holder': lease.holder },
    },
  })
}
