import type { LookupAddress } from 'node:dns'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import {
  checkAddress,
  type Destination,
  DestinationRefused,
  destinationOf,
  resolveAll,
} from './destination.ts'

/**
 * One HTTP request to a tenant's webhook under the destination policy (lib/platform/net/destination.ts), with
 * no DNS-rebinding window: the socket's own DNS lookup is replaced by one that resolves the name,
 * checks every address and hands the socket only checked ones, so the address checked is the address
 * connected to. The URL's host name stays the TLS server name (SNI, certificate check) and the Host
 * header. An address literal is checked before the request is made (Node does no lookup for one).
 * Redirects are not followed.
 *
 * Failures are reported as an outcome class (outcomeOf), never a raw error code or a timing: those
 * would let a tenant map hosts it cannot see.
 */

export type Outcome =
  | 'timeout'
  | 'connection refused'
  | 'TLS failure'
  | 'DNS failure'
  | 'destination not allowed'

export interface Answer {
  status: number
}

function guardedLookup(destination: Destination): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (addresses: LookupAddress[]) => {
        try {
          for (const { address } of addresses) checkAddress(destination, address)
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '', 0)
          return
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined
        const usable = addresses.filter((a) => wanted === undefined || a.family === wanted)
        if (!usable.length) {
          callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0)
          return
        }
        // Node asks for every address when it races families (autoSelectFamily), one otherwise.
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable)
        else callback(null, usable[0]!.address, usable[0]!.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    )
  }
}

export async function guardedRequest(
  target: string,
  init: { method: 'POST' | 'HEAD'; headers?: Record<string, string>; body?: string; timeoutMs: number },
): Promise<Answer> {
  const destination = destinationOf(target)
  if (isIP(destination.host)) checkAddress(destination, destination.host)
  const { url } = destination
  const secure = url.protocol === 'https:'
  const send = secure ? httpsRequest : httpRequest
  return new Promise<Answer>((resolve, reject) => {
    const req = send(
      {
        method: init.method,
        host: destination.host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: {
          ...init.headers,
          ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}),
        },
        lookup: guardedLookup(destination),
        // The name, not the address, is what the certificate must match (no SNI for an address).
        ...(secure && !isIP(destination.host) ? { servername: destination.host } : {}),
        // One connection per request: a pooled socket would skip the lookup (and its check).
        agent: false,
        signal: AbortSignal.timeout(init.timeoutMs),
      },
      (res) => {
        res.resume()
        resolve({ status: res.statusCode ?? 0 })
        res.on('error', () => {})
      },
    )
    req.on('error', reject)
    req.end(init.body)
  })
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|EPROTO$|ERR_OSSL)/

/** What a tenant may learn of a failed request: its class, nothing more. */
export function outcomeOf(error: unknown): Outcome {
  if (error instanceof DestinationRefused) return 'destination not allowed'
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'ABORT_ERR') return 'timeout'
  const code = err.code ?? err.cause?.code ?? ''
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT') return 'timeout'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code.startsWith('EAI_')) return 'DNS failure'
  if (TLS_CODES.test(code) || /certificate|SSL|TLS/i.test(err.message ?? '')) return 'TLS failure'
  return 'connection refused'
}
