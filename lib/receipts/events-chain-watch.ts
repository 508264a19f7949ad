import { createHash } from 'node:crypto'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { inMode, type Mode } from '#lib/platform/mode.ts'
import { chainView, DAY_MS } from './chain.ts'
import { readChain } from './chain-store.ts'
import { putEventOnce } from './events-of-receipts.ts'
import type { ReceiptRecord } from './records.ts'
import { serverNowMs } from './server-time.ts'
import type { DeviceById } from './verify-page-lookup.ts'

/**
 * The time-driven chain events (CONTRACT 23): `chain.gap_overdue` (24 h after the issued_at of the
 * receipt after a gap) and `device.silent` (an active device that has reported before sends nothing
 * for 24 h). Nothing writes when a deadline passes, so a scheduled run (lib/service/consumers.ts,
 * `receipt-chain-watch`) looks: for each device on the watch list, its chain (one GetItem) and, when
 * silent, its status (one more), at the server time of its business (the test clock in test mode).
 * Each event's id is derived from the gap or the silence it reports, so a run repeating an earlier
 * one's finding writes nothing.
 *
 * The watch list (`RWATCH#<stripe>`, one item per device that has reported) is kept by the receipt
 * stream consumer: one write per device per warm consumer instance (it remembers whom it put), not
 * per receipt.
 */
export const WATCH_STRIPES = 4
export const GAPS_OVERDUE_METRIC = 'ReceiptGapsOverdue'

interface WatchItem {
  deviceId: string
  businessId: string
  mode: Mode
}

const stripeOf = (deviceId: string) => createHash('sha256').update(deviceId).digest()[0]! % WATCH_STRIPES

const putHere = new Set<string>()

/** Puts the device on the watch list once per instance (idempotent: the same item again). */
export async function watchDevice(receipt: Pick<ReceiptRecord, 'deviceId' | 'businessId'>, mode: Mode) {
  if (putHere.has(receipt.deviceId)) return
  const item: WatchItem & { entity: string } = {
    entity: 'RECEIPT_WATCH',
    deviceId: receipt.deviceId,
    businessId: receipt.businessId,
    mode,
  }
  await writeIf({
    Put: { Item: { ...keys.receiptWatch(stripeOf(receipt.deviceId), receipt.deviceId), ...item } },
  })
  putHere.add(receipt.deviceId)
}

export interface WatchReport {
  devices: number
  gapsOverdue: number
  eventsWritten: number
}

async function watchOne(watched: WatchItem): Promise<{ overdue: number; written: number }> {
  return inMode(watched.mode, async () => {
    const nowMs = await serverNowMs(watched.businessId)
    const chain = await readChain(watched.deviceId)
    const view = chainView(chain, nowMs)
    let written = 0
    const overdue = view.gaps.filter((g) => g.overdue)
    for (const gap of overdue) {
      const after = chain.runs.find((r) => r.from === gap.to + 1)
      const since = new Date(
        Date.parse(after?.firstIssuedAt ?? new Date(nowMs).toISOString()) + DAY_MS,
      ).toISOString()
      const data = { device_id: watched.deviceId, from: gap.from, to: gap.to, overdue_since: since }
      if (
        await putEventOnce(
          'chain.gap_overdue',
          watched.businessId,
          data,
          since,
          `${watched.deviceId}#${gap.from}#${gap.to}`,
        )
      )
        written++
    }
    const last = chain.lastReceivedAt
    if (last && nowMs - Date.parse(last) >= DAY_MS) {
      const device = await readRecord<DeviceById>(keys.deviceById(watched.deviceId))
      if (device?.status === 'ACTIVE') {
        const since = new Date(Date.parse(last) + DAY_MS).toISOString()
        const data = { device_id: watched.deviceId, last_received_at: last, silent_since: since }
        if (
          await putEventOnce('device.silent', watched.businessId, data, since, `${watched.deviceId}#${last}`)
        )
          written++
      }
    }
    return { overdue: overdue.length, written }
  })
}

/** One run over every watched device of both modes. */
export async function watchChains(): Promise<WatchReport> {
  const stripes = await Promise.all(
    Array.from({ length: WATCH_STRIPES }, (_, stripe) =>
      queryAll<WatchItem>({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.receiptWatchPartition(stripe) },
      }),
    ),
  )
  const watched = stripes.flat()
  const report: WatchReport = { devices: watched.length, gapsOverdue: 0, eventsWritten: 0 }
  for (const one of watched) {
    const { overdue, written } = await watchOne(one)
    report.gapsOverdue += overdue
    report.eventsWritten += written
  }
  return report
}
