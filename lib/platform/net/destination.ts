import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { BadRequest } from '#lib/platform/errors.ts'
import { isLoopback, refusedBecause } from './addresses.ts'

/**
 * The destination policy for tenants' webhooks (CONTRACT section 14): webhook subscriptions
 * (lib/webhooks/subscriptions.ts) and the client webhook URL the CLI sets (lib/platform/auth/credentials.ts).
 *
 * - `https://` only, to a name or address that resolves only to public unicast addresses
 *   (lib/platform/net/addresses.ts). WHATWG URL parsing turns every numeric host form (hex `0x7f000001`,
 *   decimal `2130706433`, octal `0177.0.0.1`, short `127.1`, percent-encoded) into its dotted
 *   address first, so the check sees what a client would connect to.
 * - Only the local server (stage `local`) also allows `http://127.0.0.1`, `http://localhost` and
 *   `http://[::1]` (any port), for development receivers.
 * - checkDestination (at creation) resolves a name, all its A and AAAA records, and refuses it if
 *   any is not public. The connection itself (lib/platform/net/request.ts) checks the address it is about to
 *   connect to again, inside its DNS lookup, so a name that resolves differently later (DNS
 *   rebinding) is still refused.
 */

/** Stage `local`: the development receivers' hosts, reachable over plain http. */
const LOCAL_DEV_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])
const RESOLVE_TIMEOUT_MS = 3000

/** A refusal by the policy: a 400 at creation, the outcome class "destination not allowed" at delivery. */
export class DestinationRefused extends Error {
  override name = 'DestinationRefused'
}

export interface Destination {
  url: URL
  /** The host to resolve or connect to (an IPv6 literal without its brackets). */
  host: string
  /** The local server's plain-http exception to its own loopback applies. */
  localDev: boolean
}

/** The local server's stage: no deployed stage has this name (infra/stage.ts refuses it). */
export const LOCAL_STAGE = 'local'
const stageOf = (stage?: string) => stage ?? process.env.STAGE ?? LOCAL_STAGE

/** The URL's form, without DNS: scheme, host form, literal addresses. Throws DestinationRefused. */
export function destinationOf(text: string, stage?: string): Destination {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new DestinationRefused(`url is not a URL: "${text.slice(0, 200)}"`)
  }
  const local = stageOf(stage) === LOCAL_STAGE
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const localDev = local && url.protocol === 'http:' && LOCAL_DEV_HOSTS.has(url.hostname)
  if (url.protocol !== 'https:' && !localDev) {
    throw new DestinationRefused(
      local
        ? 'url must be https:// (or, on a local server only, http:// to 127.0.0.1, localhost or [::1])'
        : 'url must be https://',
    )
  }
  if (url.username || url.password)
    throw new DestinationRefused('url must not carry a user name or password: put a token in the path')
  if (isIP(host) && !localDev) {
    const why = refusedBecause(host)
    if (why) throw new DestinationRefused(refusal(url.hostname, why))
  }
  return { url, host, localDev }
}

const refusal = (host: string, why: string, address?: string) =>
  `url's host ${host}${address && address !== host ? ` resolves to ${address}, which` : ''} is ${why}: webhooks are delivered to public addresses only`

/**
 * Whether a resolved address may be connected to for this destination: public unicast, or (the
 * local server's exception) loopback for its development hosts. Throws DestinationRefused.
 */
export function checkAddress(destination: Destination, address: string): void {
  if (destination.localDev && isLoopback(address)) return
  const why = refusedBecause(address)
  if (why) throw new DestinationRefused(refusal(destination.url.hostname, why, address))
}

/** Every A and AAAA address of a name, within a time limit. */
export function resolveAll(host: string, timeoutMs = RESOLVE_TIMEOUT_MS): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error(`no DNS answer within ${timeoutMs} ms`), { code: 'ETIMEOUT' })),
      timeoutMs,
    )
    timer.unref()
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer)
      if (error) reject(error)
      else resolve(addresses)
    })
  })
}

/**
 * The policy at creation: the URL's form, then every address a name resolves to. A 400 naming what
 * is wrong (BadRequest) on any refusal; the normalised URL text otherwise.
 */
export async function checkDestination(text: string, stage?: string): Promise<string> {
  try {
    const destination = destinationOf(text, stage)
    if (!isIP(destination.host)) {
      let addresses: LookupAddress[]
      try {
        addresses = await resolveAll(destination.host)
      } catch {
        throw new DestinationRefused(
          `url's host ${destination.host} does not resolve (no A or AAAA record answered): check the name, or try again once its DNS is published`,
        )
      }
      for (const { address } of addresses) checkAddress(destination, address)
    }
    return text
  } catch (error) {
    if (error instanceof DestinationRefused) throw new BadRequest(error.message)
    throw error
  }
}
