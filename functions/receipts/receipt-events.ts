import { streamHandler } from '#lib/platform/async/handlers.ts'
import { currentMode } from '#lib/platform/mode.ts'
import { watchDevice } from '#lib/receipts/events-chain-watch.ts'
import { eventOfReceipt, isReceiptItem } from '#lib/receipts/events-of-receipts.ts'

/**
 * The table's stream -> each new receipt item (lib/service/consumers.ts): its receipt.late or
 * chain.fork event, and its device on the chain watch's list.
 */
export const handler = streamHandler('receipt-events', isReceiptItem, async (item) => {
  if (!isReceiptItem(item)) return
  await eventOfReceipt(item)
  await watchDevice(item, currentMode())
})
