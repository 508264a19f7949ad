import { randomBytes } from 'node:crypto'
import { genesisHash } from '#client/receipts/crypto.ts'
import { readRecord, recordOf } from '#lib/platform/db/items.ts'
import { readMany } from '#lib/platform/db/batch.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryPage } from '#lib/platform/db/query.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { BadRequest, Conflict, DependencyDown, invalid, NotFound } from '#lib/platform/errors.ts'
import { jwkThumbprint, parseDeviceKey } from './device-keys.ts'
import type { DeviceRecord } from './records.ts'
import { deviceByIdItem } from './verify-page-lookup.ts'
import { serverNowMs } from './server-time.ts'

/**
 * A business's registered devices (CONTRACT 23): register, list, read, revoke. Items and keys in
 * ./records.ts. Registration is one transaction of three items that must change together: the device,
 * the active count's conditional ADD (at most MAX_ACTIVE_DEVICES, as API keys count theirs:
 * lib/platform/auth/key-count.ts) and the key's thumbprint guard.
 */
export const MAX_ACTIVE_DEVICES = 100
export const TOO_MANY_DEVICES_CODE = 'TOO_MANY_DEVICES'
export const DEVICE_KEY_TAKEN_CODE = 'DEVICE_KEY_REGISTERED'

/** `dev_`, 12 hex digits of the registration's ms, 20 random: ids sort by registration. */
const newDeviceId = (atMs: number) =>
  `dev_${atMs.toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`

/** A device as the API shows it. */
export function deviceView(device: DeviceRecord) {
  return {
    device_id: device.deviceId,
    name: device.name,
    public_key: device.publicKey,
    status: device.status,
    registered_at: device.registeredAt,
    ...(device.revokedAt ? { revoked_at: device.revokedAt } : {}),
    genesis_hash: device.genesisHash,
  }
}

const tooMany = () => {
  const message = `Your business has ${MAX_ACTIVE_DEVICES} active devices in this mode, the most it may have: revoke one it no longer uses (DELETE /api/v1/devices/{id}) before registering another`
  return new Conflict(message, { problems: [{ path: '', code: TOO_MANY_DEVICES_CODE, message }] })
}
const keyTaken = () => {
  const message =
    'This public key is already registered for a device of your business: each device has a key of its own (generate a new key pair on the device)'
  return new Conflict(message, {
    problems: [{ path: 'public_key', code: DEVICE_KEY_TAKEN_CODE, message }],
  })
}

/** The registration's three items: the count's conditional ADD, the key's guard, the device. */
function registrationItems(device: DeviceRecord) {
  const { businessId, deviceId, thumbprint } = device
  return {
    count: {
      Update: {
        TableName: tableName(),
        Key: keys.deviceCount(businessId),
        UpdateExpression: 'SET entity = :entity ADD active :one',
        ConditionExpression: 'attribute_not_exists(active) OR active < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_ACTIVE_DEVICES, ':entity': 'DEVICE_COUNT' },
      },
    },
    guard: {
      Put: {
        TableName: tableName(),
        Item: { ...keys.deviceKeyGuard(businessId, thumbprint), entity: 'DEVICE_KEY', deviceId },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    device: {
      Put: {
        TableName: tableName(),
        Item: { ...keys.device(businessId, deviceId), ...device },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    // The device by its id alone, for the public verification page (./verify-page-lookup.ts).
    byId: { Put: { TableName: tableName(), Item: deviceByIdItem(device) } },
  }
}

export async function registerDevice(
  businessId: string,
  input: { name: string; public_key: Record<string, unknown> },
): Promise<DeviceRecord> {
  const parsed = parseDeviceKey(input.public_key)
  if (!parsed.ok) throw invalid(parsed.problems, 'The device key is refused')
  const atMs = await serverNowMs(businessId)
  const deviceId = newDeviceId(atMs)
  const device: DeviceRecord = {
    entity: 'DEVICE',
    deviceId,
    businessId,
    name: input.name,
    publicKey: parsed.key,
    thumbprint: jwkThumbprint(parsed.key),
    status: 'ACTIVE',
    genesisHash: genesisHash(deviceId),
    registeredAt: new Date(atMs).toISOString(),
  }
  await withRetries(
    async () => {
      const outcome = await transact(registrationItems(device))
      if (outcome.ok) return true
      if (outcome.failed.includes('guard')) throw keyTaken()
      if (outcome.failed.includes('count')) throw tooMany()
      // Another registration or revocation held the count at that moment: try again.
      return AGAIN
    },
    {
      attempts: 5,
      baseMs: 20,
      capMs: 400,
      exhausted: () => {
        throw new DependencyDown(
          "Other changes to your business's devices were being made at the same moment: nothing changed, try again",
        )
      },
    },
  )
  return device
}

export const readDevice = (businessId: string, deviceId: string) =>
  readRecord<DeviceRecord>(keys.device(businessId, deviceId), { consistent: true })

const UNKNOWN_DEVICE =
  'Your business has no device with this id (a test-mode key sees no live device): nothing is revealed about other businesses'

export async function ownDevice(businessId: string, deviceId: string): Promise<DeviceRecord> {
  const device = await readDevice(businessId, deviceId)
  if (!device) throw new NotFound(UNKNOWN_DEVICE)
  return device
}

/** The devices of a business named by a request's receipts, read together (one BatchGetItem per 100). */
export async function devicesOf(businessId: string, deviceIds: string[]): Promise<Map<string, DeviceRecord>> {
  const unique = [...new Set(deviceIds)]
  const items = await readMany(unique.map((id) => keys.device(businessId, id)))
  const found = new Map<string, DeviceRecord>()
  for (const item of items.values()) {
    const device = recordOf<DeviceRecord>(item)
    found.set(device.deviceId, device)
  }
  return found
}

/**
 * Revokes a device: REVOKED from now on (receipts it signed before revokedAt are still accepted),
 * with the count's decrement in the same transaction. Revoking a revoked device changes nothing.
 */
export async function revokeDevice(businessId: string, deviceId: string): Promise<DeviceRecord> {
  const device = await ownDevice(businessId, deviceId)
  if (device.status === 'REVOKED') return device
  const revokedAt = new Date(await serverNowMs(businessId)).toISOString()
  const outcome = await transact({
    device: {
      Update: {
        TableName: tableName(),
        Key: keys.device(businessId, deviceId),
        UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'REVOKED', ':active': 'ACTIVE', ':at': revokedAt },
      },
    },
    byId: {
      Update: {
        TableName: tableName(),
        Key: keys.deviceById(deviceId),
        UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'REVOKED', ':at': revokedAt },
      },
    },
    count: {
      Update: {
        TableName: tableName(),
        Key: keys.deviceCount(businessId),
        UpdateExpression: 'ADD active :minus',
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  })
  // Revoked by a concurrent request (its revocation is the one kept), or a conflict: read what stands.
  if (!outcome.ok) return ownDevice(businessId, deviceId)
  return { ...device, status: 'REVOKED', revokedAt }
}

const CURSOR = /^dev_[0-9a-f]{32}$/

/** One page of the business's devices in registration order, by cursor (the last device id shown). */
export async function listDevices(businessId: string, options: { size: number; cursor?: string }) {
  if (options.cursor && !CURSOR.test(options.cursor))
    throw new BadRequest('cursor is not one this API gave: use page.next_cursor of the previous reply')
  const page = await queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :dev)',
      ExpressionAttributeValues: { ':pk': keys.devicePartition(businessId), ':dev': keys.deviceSkPrefix },
      ...(options.cursor ? { ExclusiveStartKey: keys.device(businessId, options.cursor) } : {}),
    },
    options.size,
  )
  const devices = page.items.map((item) => recordOf<DeviceRecord>(item))
  return {
    content: devices.map(deviceView),
    page: {
      size: options.size,
      next_cursor: page.more ? devices[devices.length - 1]!.deviceId : null,
    },
  }
}
