/**
 * `npm run smoke -- --url <api url> [credentials]`: after a deploy, one signed read-only request per
 * area; prints a pass/fail table and exits 1 if any check fails. Each credential is an option or an
 * environment variable (options win):
 *
 *   --api-key / SMOKE_API_KEY, --api-secret / SMOKE_API_SECRET                 Area A
 *   --switch-token / SMOKE_SWITCH_TOKEN, --switch-secret / SMOKE_SWITCH_SECRET Area B
 *   --account / SMOKE_ACCOUNT (an account number for the balance enquiry)
 *   --merchant-token / SMOKE_MERCHANT_TOKEN, --merchant-id / SMOKE_MERCHANT_ID Area C
 *   --notify-token / SMOKE_NOTIFY_TOKEN                                         Area D
 *
 * An area without credentials is reported SKIP; `--strict` makes a skip fail the run.
 */
import { parseArgs } from 'node:util'
import { joinStringValues } from './cli/join-values.ts'
import { runSmoke, type SmokeCredentials, smokeTable } from './smoke/checks.ts'

const OPTIONS = {
  url: 'SMOKE_URL',
  'api-key': 'SMOKE_API_KEY',
  'api-secret': 'SMOKE_API_SECRET',
  'switch-token': 'SMOKE_SWITCH_TOKEN',
  'switch-secret': 'SMOKE_SWITCH_SECRET',
  account: 'SMOKE_ACCOUNT',
  'merchant-token': 'SMOKE_MERCHANT_TOKEN',
  'merchant-id': 'SMOKE_MERCHANT_ID',
  'notify-token': 'SMOKE_NOTIFY_TOKEN',
} as const

async function main(): Promise<number> {
  const options = {
    ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, { type: 'string' as const }])),
    strict: { type: 'boolean' as const },
    help: { type: 'boolean' as const, short: 'h' },
  }
  const { values } = parseArgs({ args: joinStringValues(process.argv.slice(2), options), options })
  const value = (name: keyof typeof OPTIONS) =>
    ((values as Record<string, unknown>)[name] as string | undefined) ||
    process.env[OPTIONS[name]] ||
    undefined
  const url = value('url')
  if (values.help || !url) {
    console.log(
      'Usage: npm run smoke -- --url https://<api-id>.execute-api.<region>.amazonaws.com [--api-key K --api-secret S]\n' +
        '       [--switch-token T --switch-secret S [--account N]] [--merchant-token T --merchant-id M]\n' +
        '       [--notify-token T] [--strict]   (each also from SMOKE_URL, SMOKE_API_KEY, ...: see scripts/smoke.ts)',
    )
    return url ? 0 : 2
  }
  const credentials: SmokeCredentials = {
    apiKey: value('api-key'),
    apiSecret: value('api-secret'),
    switchToken: value('switch-token'),
    switchSecret: value('switch-secret'),
    account: value('account'),
    merchantToken: value('merchant-token'),
    merchantId: value('merchant-id'),
    notifyToken: value('notify-token'),
  }
  const rows = await runSmoke(url, credentials)
  console.log(`Smoke test of ${url}\n\n${smokeTable(rows)}\n`)
  const failed = rows.filter((r) => r.outcome === 'FAIL' || (values.strict && r.outcome === 'SKIP'))
  console.log(failed.length === 0 ? 'Smoke test passed.' : `Smoke test FAILED: ${failed.length} check(s).`)
  return failed.length === 0 ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
