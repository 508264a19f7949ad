import { apiClientsOf, getApiClient, usableSecrets } from '#lib/platform/auth/credentials.ts'
import { currentMode } from '#lib/platform/mode.ts'

/** A webhook a business registered on one of its API clients, with that client's credentials. */
export interface PartyWebhook {
  url: string
  apiKey: string
  /** The client's current (newest) API secret: deliveries are signed with it. */
  secret: string
}

/**
 * A party's webhooks: the webhookUrl of each active API client of the business, one entry per URL
 * (two clients registering the same URL get one delivery, signed for the first of them).
 * Only the clients of the work's mode count (CONTRACT section 15): a test-mode transmit probes and
 * delivers to the parties' test-mode systems only, and a live one never to a test client's URL.
 */
export async function webhooksOf(businessId: string): Promise<PartyWebhook[]> {
  const byUrl = new Map<string, PartyWebhook>()
  const mode = currentMode()
  const clients = (await apiClientsOf(businessId)).sort((a, b) => a.apiKey.localeCompare(b.apiKey))
  for (const client of clients) {
    if (!client.active || !client.webhookUrl || byUrl.has(client.webhookUrl)) continue
    if ((client.mode ?? 'live') !== mode) continue
    // The index holds no secrets: the client's own item is read, for the systems of this mode only.
    const whole = await getApiClient(client.apiKey)
    if (!whole?.active) continue
    const newest = whole.secrets.slice(-1)
    // Stored encrypted: an undecryptable secret is logged by usableSecrets and the webhook skipped.
    const secret = (await usableSecrets(newest, { record: 'api-client', id: client.apiKey }))[0]?.secret
    if (!secret) continue
    byUrl.set(client.webhookUrl, { url: client.webhookUrl, apiKey: client.apiKey, secret })
  }
  return [...byUrl.values()]
}
