import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { auditPut } from '#lib/platform/audit/trail.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { Conflict, NotFound } from '#lib/platform/errors.ts'
import { lagosDateTime } from '#lib/platform/time.ts'
import type { MessageType, TemplateReplaceRequest, TemplateRequest } from './schemas.ts'

/** A template as listed: exactly the key names of D.1, in its order, without the sample's padding. */
export interface TemplateItem {
  templateID: number
  productCode: string
  message: string
  messageType: number
  createdAT: string
  createdBy: string
  updatedAt: string
  updatedBy: string
  version: number
}

export const toTemplateItem = (stored: Record<string, unknown>): TemplateItem => ({
  templateID: stored.templateID as number,
  productCode: stored.productCode as string,
  message: stored.message as string,
  messageType: stored.messageType as number,
  createdAT: stored.createdAT as string,
  createdBy: stored.createdBy as string,
  updatedAt: stored.updatedAt as string,
  updatedBy: stored.updatedBy as string,
  version: stored.version as number,
})

const messageTypeName = (t: number) => (t === 0 ? '0 (successful)' : '1 (failed)')

export async function getTemplate(
  productCode: string,
  messageType: number,
): Promise<TemplateItem | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.notificationTemplate(productCode, messageType),
      ConsistentRead: true,
    }),
  )
  return out.Item ? toTemplateItem(out.Item) : undefined
}

/** The templates of one product (at most one per messageType), optionally only the given templateID. */
export async function listTemplates(productCode: string, templateId?: number): Promise<TemplateItem[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.notificationTemplatePartition(productCode) },
      ConsistentRead: true,
      // Two messageTypes per product: one page always holds them all.
      Limit: 10,
    }),
  )
  return (out.Items ?? [])
    .map(toTemplateItem)
    .filter((t) => templateId === undefined || t.templateID === templateId)
    .sort((a, b) => a.messageType - b.messageType)
}

/** The next templateID: an atomic counter, so concurrent creations never share one. */
async function allocateTemplateId(): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.notificationTemplateCounter(),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  )
  return out.Attributes?.value as number
}

const pairTaken = (productCode: string, messageType: number, existing?: TemplateItem) =>
  new Conflict(
    `A template for product ${productCode} and messageType ${messageTypeName(messageType)} already exists` +
      (existing
        ? ` (templateID ${existing.templateID}): replace it with PUT /notification/template/${existing.templateID}`
        : ''),
    { code: 'TEMPLATE_EXISTS' },
  )

/** Creates the template of a (productCode, messageType) pair; a second one for the same pair is 409. */
export async function createTemplate(input: TemplateRequest, by: string): Promise<TemplateItem> {
  const existing = await getTemplate(input.productCode, input.messageType)
  if (existing) throw pairTaken(input.productCode, input.messageType, existing)
  const templateID = await allocateTemplateId()
  const now = lagosDateTime()
  const item: TemplateItem = {
    templateID,
    productCode: input.productCode,
    message: input.message,
    messageType: input.messageType,
    createdAT: now,
    createdBy: by,
    updatedAt: now,
    updatedBy: by,
    version: 1,
  }
  const outcome = await transact({
    template: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.notificationTemplate(input.productCode, input.messageType),
          entity: 'NOTIFICATION_TEMPLATE',
          ...item,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    id: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.notificationTemplateId(templateID),
          entity: 'NOTIFICATION_TEMPLATE_ID',
          productCode: input.productCode,
          messageType: input.messageType,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    // The audit event is part of the same transaction: no template exists without it.
    audit: auditPut({
      type: 'TEMPLATE_CREATED',
      actor: `admin:${by}`,
      subject: { kind: 'TEMPLATE', id: String(templateID) },
      after: `v1 ${input.productCode}/${input.messageType}`,
    }),
  })
  // A concurrent creation for the same pair won; this templateID stays unused (ids may skip, never repeat).
  if (!outcome.ok && outcome.failed.includes('template')) {
    throw pairTaken(
      input.productCode,
      input.messageType,
      await getTemplate(input.productCode, input.messageType),
    )
  }
  if (!outcome.ok) throw outcome.error
  return item
}

/**
 * Replaces a template as a whole and increments its version. With `version` in the body the
 * replacement happens only if that is still the stored version (409 otherwise); without it, it
 * applies to whatever version is current. Moving a template to another (productCode, messageType)
 * pair is allowed when that pair is free.
 */
export async function replaceTemplate(
  templateId: number,
  input: TemplateReplaceRequest,
  by: string,
): Promise<TemplateItem> {
  let raced: Error | undefined
  return withRetries(
    async () => {
      const current = await templateById(templateId)
      if (input.version !== undefined && input.version !== current.version) {
        throw new Conflict(
          `Template ${templateId} is at version ${current.version}, not ${input.version}: read it again and reapply your change`,
          { code: 'TEMPLATE_VERSION_STALE' },
        )
      }
      const item: TemplateItem = {
        ...current,
        productCode: input.productCode,
        message: input.message,
        messageType: input.messageType,
        updatedAt: lagosDateTime(),
        updatedBy: by,
        version: current.version + 1,
      }
      const moves = current.productCode !== item.productCode || current.messageType !== item.messageType
      const outcome = await transact(replacementItems(templateId, current, item, by))
      if (outcome.ok) return item
      if (moves && outcome.failed.includes('stored')) {
        throw pairTaken(
          item.productCode,
          item.messageType,
          await getTemplate(item.productCode, item.messageType),
        )
      }
      // Someone replaced it in between: with a version in the body that is the caller's conflict;
      // without one, apply this replacement on top of the newer version.
      if (!outcome.failed.includes(moves ? 'old' : 'stored') && !outcome.conflict) throw outcome.error
      if (input.version !== undefined) {
        throw new Conflict(
          `Template ${templateId} was changed by someone else just now: read it again and reapply your change`,
          { code: 'TEMPLATE_VERSION_STALE' },
        )
      }
      raced = outcome.error
      return AGAIN
    },
    { attempts: 6, baseMs: 0, exhausted: () => Promise.reject(raced) },
  )
}

/** The template a templateID points at (strongly consistent), or the 404. */
async function templateById(templateId: number): Promise<TemplateItem> {
  const pointer = (
    await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.notificationTemplateId(templateId),
        ConsistentRead: true,
      }),
    )
  ).Item
  const current = pointer
    ? await getTemplate(pointer.productCode as string, pointer.messageType as number)
    : undefined
  if (!pointer || !current)
    throw new NotFound(`No notification template has templateID ${templateId}`, {
      code: 'TEMPLATE_NOT_FOUND',
    })
  return current
}

/**
 * The items of a replacement, conditional on the version read: in place (`stored`), or moved to
 * another (productCode, messageType) pair (`old` deleted, `stored` new there, the id's `pointer`
 * moved), with its audit event either way.
 */
function replacementItems(templateId: number, current: TemplateItem, item: TemplateItem, by: string) {
  const stored = {
    ...keys.notificationTemplate(item.productCode, item.messageType as MessageType),
    entity: 'NOTIFICATION_TEMPLATE',
    ...item,
  }
  const audit = auditPut({
    type: 'TEMPLATE_REPLACED',
    actor: `admin:${by}`,
    subject: { kind: 'TEMPLATE', id: String(templateId) },
    before: `v${current.version} ${current.productCode}/${current.messageType}`,
    after: `v${item.version} ${item.productCode}/${item.messageType}`,
  })
  const versionIs = {
    ConditionExpression: 'version = :v',
    ExpressionAttributeValues: { ':v': current.version },
  }
  if (current.productCode === item.productCode && current.messageType === item.messageType)
    return { stored: { Put: { TableName: tableName(), Item: stored, ...versionIs } }, audit }
  return {
    old: {
      Delete: {
        TableName: tableName(),
        Key: keys.notificationTemplate(current.productCode, current.messageType),
        ...versionIs,
      },
    },
    stored: {
      Put: { TableName: tableName(), Item: stored, ConditionExpression: 'attribute_not_exists(pk)' },
    },
    pointer: {
      Update: {
        TableName: tableName(),
        Key: keys.notificationTemplateId(templateId),
        UpdateExpression: 'SET productCode = :p, messageType = :t',
        ExpressionAttributeValues: { ':p': item.productCode, ':t': item.messageType },
      },
    },
    audit,
  }
}
