import { randomUUID } from 'node:crypto'
import { ApiClient, type ClientReply } from '#client/api-client.ts'

/**
 * The post-deploy smoke test: one signed, read-only request per area (and the public documents),
 * each judged by status and record shape. Nothing it sends changes business data: the balance
 * enquiry reads an account (its nonce item expires), the rest are GETs.
 */

export interface SmokeCredentials {
  /** Area A: an API key and its secret (any role). */
  apiKey?: string
  apiSecret?: string
  /** Area B: the switch's bearer token and signing secret. */
  switchToken?: string
  switchSecret?: string
  /** Area B: an account to enquire about (an unknown one still proves the path: code 14). */
  account?: string
  /** Area C: a merchant's bearer token and id. */
  merchantToken?: string
  merchantId?: string
  /** Area D: the notification admin key. */
  notifyToken?: string
}

export interface SmokeRow {
  check: string
  outcome: 'PASS' | 'FAIL' | 'SKIP'
  detail: string
}

interface Check {
  name: string
  /** Why it is skipped, when its credentials are missing. */
  missing?: string
  run(): Promise<ClientReply>
  passes(reply: ClientReply): boolean
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export function smokeChecks(url: string, c: SmokeCredentials): Check[] {
  const anonymous = new ApiClient(url, { area: 'none' })
  const areaA =
    c.apiKey && c.apiSecret
      ? new ApiClient(url, { area: 'A', credentials: { apiKey: c.apiKey, secret: c.apiSecret } })
      : undefined
  const areaB =
    c.switchToken && c.switchSecret
      ? new ApiClient(url, { area: 'B', credentials: { token: c.switchToken, secret: c.switchSecret } })
      : undefined
  const areaC =
    c.merchantToken && c.merchantId
      ? new ApiClient(url, {
          area: 'bearer',
          token: c.merchantToken,
          headers: { 'x-merchant-id': c.merchantId },
        })
      : undefined
  const areaD = c.notifyToken ? new ApiClient(url, { area: 'bearer', token: c.notifyToken }) : undefined
  const skip = (client: unknown, what: string) => (client ? undefined : `no ${what} given`)

  return [
    {
      name: 'health check (anonymous)',
      run: () => anonymous.get('/api/v1/health-check'),
      passes: (r) => r.status === 200 && isObject(r.body),
    },
    {
      name: 'public keys (JWKS)',
      run: () => anonymous.get('/api/v1/resource/public-keys'),
      passes: (r) => r.status === 200 && isObject(r.body) && Array.isArray(r.body.keys),
    },
    {
      name: 'OpenAPI document',
      run: () => anonymous.get('/api/openapi.json'),
      passes: (r) => r.status === 200 && isObject(r.body) && typeof r.body.openapi === 'string',
    },
    {
      name: 'A: signed reference list (countries)',
      missing: skip(areaA, 'API key and secret (--api-key, --api-secret)'),
      run: () => areaA!.get('/api/v1/resource/countries'),
      passes: (r) => r.status === 200 && isObject(r.body) && Array.isArray(r.body.data),
    },
    {
      name: 'A: signed health check (full detail)',
      missing: skip(areaA, 'API key and secret'),
      run: () => areaA!.get('/api/v1/health-check'),
      passes: (r) => r.status === 200 && isObject(r.body),
    },
    {
      name: 'B: balance enquiry',
      missing: skip(areaB, 'switch token and secret (--switch-token, --switch-secret)'),
      run: () =>
        areaB!.post('/api/v1/transactions/balance-enquiry', {
          requestId: `SMOKE-${randomUUID()}`,
          stan: '000001',
          processingCode: '310000',
          accountNumber: c.account ?? '0000000000',
        }),
      // 00 for a known account, 14 for an unknown one: either proves signing, routing and the table.
      passes: (r) =>
        r.status === 200 && isObject(r.body) && ['00', '14'].includes(String(r.body.responseCode)),
    },
    {
      name: 'C: merchant history',
      missing: skip(areaC, 'merchant token and id (--merchant-token, --merchant-id)'),
      run: () => areaC!.get('/api/v1/merchant/transactions?page=1&size=1'),
      passes: (r) => r.status === 200 && isObject(r.body) && r.body.responseCode === '00',
    },
    {
      name: 'D: notification e-mail list',
      missing: skip(areaD, 'notification admin key (--notify-token)'),
      run: () => areaD!.get('/notification/email'),
      passes: (r) => r.status === 200 && isObject(r.body),
    },
  ]
}

/** Runs every check; a request that throws (DNS, TLS, refused) is a FAIL with its reason. */
export async function runSmoke(url: string, credentials: SmokeCredentials): Promise<SmokeRow[]> {
  const rows: SmokeRow[] = []
  for (const check of smokeChecks(url, credentials)) {
    if (check.missing) {
      rows.push({ check: check.name, outcome: 'SKIP', detail: check.missing })
      continue
    }
    try {
      const started = performance.now()
      const reply = await check.run()
      const ms = Math.round(performance.now() - started)
      const ok = check.passes(reply)
      const message = isObject(reply.body) ? (reply.body.message ?? reply.body.responseMessage) : undefined
      rows.push({
        check: check.name,
        outcome: ok ? 'PASS' : 'FAIL',
        detail: `HTTP ${reply.status} in ${ms} ms${ok || message === undefined ? '' : `: ${String(message)}`}`,
      })
    } catch (error) {
      rows.push({ check: check.name, outcome: 'FAIL', detail: (error as Error).message })
    }
  }
  return rows
}

export function smokeTable(rows: readonly SmokeRow[]): string {
  const width = Math.max(...rows.map((r) => r.check.length))
  return rows.map((r) => `${r.outcome.padEnd(4)}  ${r.check.padEnd(width)}  ${r.detail}`).join('\n')
}
