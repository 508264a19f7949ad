import { DeleteCommand } from '@aws-sdk/lib-dynamodb'
import { appendAudit } from '#lib/platform/audit/trail.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { lagosDateTime } from '#lib/platform/time.ts'

/**
 * The admin notification e-mail list. One item per address, keyed by the lower-cased address, so the
 * list is de-duplicated case-insensitively by the key itself; the first spelling added is the one kept.
 */

/** Unique addresses of a request, compared case-insensitively, first spelling first. */
function unique(addresses: string[]): Map<string, string> {
  const byLower = new Map<string, string>()
  for (const address of addresses) {
    const lower = address.toLowerCase()
    if (!byLower.has(lower)) byLower.set(lower, address)
  }
  return byLower
}

export async function addEmails(
  addresses: string[],
  by: string,
): Promise<{ added: string[]; alreadyPresent: string[] }> {
  const added: string[] = []
  const alreadyPresent: string[] = []
  const addedAt = lagosDateTime()
  await Promise.all(
    [...unique(addresses)].map(async ([lower, email]) => {
      const { written } = await writeIf({
        Put: {
          Item: {
            ...keys.notificationEmail(lower),
            entity: 'NOTIFICATION_EMAIL',
            email,
            addedAt,
            addedBy: by,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      })
      if (written) added.push(email)
      else alreadyPresent.push(email)
    }),
  )
  // One event per request, appended after the per-address writes (they are separate conditional puts).
  if (added.length) {
    await appendAudit({
      type: 'NOTIFY_EMAILS_ADDED',
      actor: `admin:${by}`,
      subject: { kind: 'NOTIFY', id: 'emails' },
      detail: { count: added.length },
    })
  }
  return { added, alreadyPresent }
}

/** Removes addresses (case-insensitively); an address that is not on the list is simply not there. */
export async function removeEmails(
  addresses: string[],
  by: string,
): Promise<{ removed: string[]; notPresent: string[] }> {
  const removed: string[] = []
  const notPresent: string[] = []
  await Promise.all(
    [...unique(addresses)].map(async ([lower, email]) => {
      const out = await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.notificationEmail(lower),
          ReturnValues: 'ALL_OLD',
        }),
      )
      if (out.Attributes) removed.push(out.Attributes.email as string)
      else notPresent.push(email)
    }),
  )
  if (removed.length) {
    await appendAudit({
      type: 'NOTIFY_EMAILS_REMOVED',
      actor: `admin:${by}`,
      subject: { kind: 'NOTIFY', id: 'emails' },
      detail: { count: removed.length },
    })
  }
  return { removed, notPresent }
}

/** Every address on the list, in lower-cased alphabetical order (the key order). */
export async function listEmails(): Promise<string[]> {
  const items = await queryAll<{ email: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.notificationEmailPartition() },
    ConsistentRead: true,
    Limit: 500,
  })
  return items.map((item) => item.email)
}
