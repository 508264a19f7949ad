import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { randomUUID } from 'node:crypto'
import { type QueueName, sendMessage } from '#lib/platform/async/queue.ts'
import { logger } from '#lib/platform/log.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { putAll } from '#lib/platform/db/batch.ts'
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
 * so a crash never shrinks a host's allowance for long.
 *
 * When every slot is held the work waits in the host's waiting line (`WAIT#<place>` items beside the
 * slots), and each release hands the freed slot on: it takes the line's oldest entry and queues its
 * message with no delay, the slot's lease given to it (a new holder) rather than freed. So a host's backlog moves at the pace its slots free (its receiver's pace),
 * not at a fixed wait's, and waiting costs one write instead of an attempt every few seconds
 * (issue 46). An entry that found the slots full re-reads them after it is written: should every
 * holder have released between its read and its write, it moves the line itself, so no entry waits
 * on a release that already happened. An entry stranded all the same (every holder died, its
 * lease left to run out) is the overdue sweep's (lib/webhooks/overdue-sweep.ts): its delivery is
 * PENDING and past due, as a lost message's is. A message queued from the line twice is harmless:
 * the attempt count and the claim let one attempt run (lib/webhooks/delivery-worker.ts).
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
  /** When the lease runs out (ms); absent from leases taken before it was kept. */
  until?: number
}

/** The host a lease is keyed by: the URL's host name, lower case, whatever the port (a host is one machine). */
export const hostOf = (url: string): string => new URL(url).hostname.toLowerCase()

/** The slots of a host whose lease has not run out. */
export async function heldSlots(host: string, now: number, consistent = false): Promise<Set<number>> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :slot)',
      ExpressionAttributeValues: { ':pk': keys.webhookHostSlot(host, 0).pk, ':slot': 'SLOT#' },
      ConsistentRead: consistent,
    }),
  )
  return new Set(
    (out.Items ?? [])
      .filter((item) => typeof item.until === 'number' && item.until >= now)
      .map((item) => Number(String(item.sk).slice('SLOT#'.length))),
  )
}

export async function takeHostSlot(host: string, now = Date.now()): Promise<HostLease | undefined> {
  const busy = await heldSlots(host, now)
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
    if (taken.written) return { host, slot, holder, until: now + LEASE_MS }
  }
  return undefined
}

/**
 * Frees a slot this worker holds (a lease already taken over by another worker is left alone), and
 * hands it on: the oldest entry of the host's waiting line is queued now.
 */
export async function releaseHostSlot(lease: HostLease): Promise<void> {
  try {
    if (await moveLine(lease.host, 1, lease)) return
  } catch (error) {
    logger.warn('webhook host line not moved after a release', { error: (error as Error).message })
  }
  await writeIf({
    Update: {
      Key: keys.webhookHostSlot(lease.host, lease.slot),
      UpdateExpression: 'REMOVE #until, holder',
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':holder': lease.holder },
    },
  })
  // The line was empty when looked at: an entry written since found this slot held, and is moved here.
  await moveLineQuietly(lease.host, 1)
}

/**
 * A lease handed on: the same slot, a new holder and a fresh lease, if `lease` still holds it.
 * Saves the next attempt the read and the write of taking a slot, and the slot is never seen free
 * by a newcomer in between (the line is served first).
 */
async function handOn(lease: HostLease, now = Date.now()): Promise<HostLease | undefined> {
  const next = { host: lease.host, slot: lease.slot, holder: randomUUID(), until: now + LEASE_MS }
  const moved = await writeIf({
    Update: {
      Key: keys.webhookHostSlot(lease.host, lease.slot),
      UpdateExpression: 'SET #until = :until, holder = :next',
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':until': next.until, ':next': next.holder, ':holder': lease.holder },
    },
  })
  return moved.written ? next : undefined
}

/**
 * What waits in a host's line: a message to queue when a slot frees. `fills` says whether it takes
 * the slot (an attempt) or only needs its turn (a recovery's next page, lib/webhooks/recovery.ts):
 * a release moves the line until it has handed its slot to one that fills it.
 */
export interface LineEntry {
  /** The entry's sort key in the line: oldest first; an entry written again keeps its place. */
  place: string
  queue: QueueName
  body: object
  fills: boolean
}

/** Lines are short-lived: an entry left behind (its work done another way) goes after a day. */
const lineItem = (host: string, entry: LineEntry, now: number) => ({
  ...keys.webhookHostLine(host, entry.place),
  queue: entry.queue,
  body: entry.body,
  fills: entry.fills,
  [TTL_ATTRIBUTE]: Math.floor(now / 1000) + 86_400,
})

/**
 * Work that found every slot of `host` held: written to the host's line, to be queued when a slot
 * frees. Then the slots are read again (strongly consistent, as the line is): if one is free now,
 * every holder released before the entry was there to be handed the slot, and the line is moved
 * here instead.
 */
export async function waitForSlot(host: string, entry: LineEntry, now = Date.now()): Promise<void> {
  await writeIf({ Put: { Item: lineItem(host, entry, now) } })
  const held = await heldSlots(host, now, true)
  if (held.size < MAX_PER_HOST) await moveLine(host, MAX_PER_HOST - held.size)
}

/** Several entries at once (a recovery's page), then the line moved by as many slots as are free. */
export async function waitForSlots(host: string, entries: LineEntry[], now = Date.now()): Promise<void> {
  await putAll(entries.map((entry) => lineItem(host, entry, now)))
  const held = await heldSlots(host, now, true)
  if (held.size < MAX_PER_HOST) await moveLine(host, MAX_PER_HOST - held.size)
}

/**
 * Queues the line's oldest entries, with no delay, until `slots` entries that fill a slot are
 * queued or the line is empty. Each entry is taken by a conditional delete, so of two workers moving
 * the line at once each queues different entries. With `lease` (a release), the first entry that
 * fills a slot is handed that slot; true when it was.
 */
export async function moveLine(host: string, slots: number, lease?: HostLease): Promise<boolean> {
  let handed = 0
  let leaseHanded = false
  while (handed < slots) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :wait)',
        ExpressionAttributeValues: { ':pk': keys.webhookHostSlot(host, 0).pk, ':wait': 'WAIT#' },
        ConsistentRead: true,
        Limit: slots - handed + 4,
      }),
    )
    const entries = out.Items ?? []
    if (!entries.length) return leaseHanded
    // In random order: releases at the same moment read the same oldest few, and mostly take
    // different ones (the line is first come, first served to within those few).
    entries.sort(() => Math.random() - 0.5)
    let took = false
    for (const item of entries) {
      if (handed >= slots) break
      const taken = await writeIf({
        Delete: { Key: { pk: item.pk, sk: item.sk }, ConditionExpression: 'attribute_exists(pk)' },
      })
      if (!taken.written) continue
      took = true
      // The first entry that fills a slot is handed `lease` (the releaser's) when there is one.
      const given = item.fills && lease && !leaseHanded ? await handOn(lease) : undefined
      if (given) leaseHanded = true
      await sendMessage(item.queue as QueueName, given ? { ...item.body, lease: given } : item.body)
      if (item.fills) handed++
    }
    // Every entry read was taken by another worker moving the line: it is moving.
    if (!took) return leaseHanded
  }
  return leaseHanded
}

/**
 * A release's move of the line (or a handed slot's, not used): its failure is logged, never thrown.
 * The attempt it follows is over; a failure here must not make its message run again (the receiver
 * would get it twice), and an entry left in the line is moved by the next release or, at worst, the
 * overdue sweep.
 */
export async function moveLineQuietly(host: string, slots: number): Promise<void> {
  try {
    await moveLine(host, slots)
  } catch (error) {
    logger.warn('webhook host line not moved after a release', { error: (error as Error).message })
  }
}
