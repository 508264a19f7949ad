import { currentMode } from '#lib/platform/mode.ts'
import { clockOffsetMs } from '#lib/platform/test-clock.ts'

/**
 * The server's time for a business's receipts and devices (CONTRACT 23): the real time live, the
 * business's test clock in test mode (CONTRACT 15), so that lateness, overdue gaps and revocations
 * can be tried in seconds. One GetItem in test mode, none live.
 */
export async function serverNowMs(businessId: string): Promise<number> {
  const offset = currentMode() === 'test' ? await clockOffsetMs({ business: businessId }) : 0
  return Date.now() + offset
}
