import { execFileSync, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { getOutboxItem } from '#lib/notifications/outbox.ts'
import { routes } from '#lib/service/routes.ts'
import { freePort } from '../../../scripts/local/dynamodb-local.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { send } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { type NpmStart, npmStart } from '../../support/npm-start.ts'
import { eventually, startEventReceiver } from '../../support/standard-webhook-receiver.ts'
import { transferBody } from '../../support/transfers.ts'

/**
 * What deploys, and only that (issue 21): a copy of the project with the cloud assembly `cdk synth`
 * wrote and WITHOUT functions/, running `npm start -- --bundles=cdk.out` as a developer would. Every
 * route must answer from its bundle, and every consumer must run from its bundle: the history indexer
 * (a signed transfer shows in the merchant's history), the outbox sender (its notification is sent),
 * the webhook fan-out and delivery (an event reaches a local receiver), the batch worker (a batch
 * completes) and the daily reconciliation (invoked as its schedule would). With any of them still
 * loaded from functions/, the copy fails (ERR_MODULE_NOT_FOUND).
 *
 * Needs a cloud assembly: it runs in the CI's bundles pass (API_BUNDLES=cdk.out, after `cdk synth`)
 * and is skipped by a plain `npm test`.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const assembly = process.env.API_BUNDLES ? resolve(ROOT, process.env.API_BUNDLES) : undefined
const hasAssembly = Boolean(assembly && existsSync(join(assembly, 'manifest.json')))

let copy: string
let server: NpmStart | undefined
let url: string
let clients: DevClients
const serverFile = () => join(copy, '.local', 'test-server.json')

/** The project as a clean clone has it (tracked and new, not ignored, files), less functions/. */
function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deployed-copy-'))
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
  })
    .toString()
    .split('\0')
    .filter((file) => file && !file.startsWith('functions/') && existsSync(join(ROOT, file)))
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(dir, file))
  }
  // A copy, not a link: a bundle resolved through a link would sit in the original project, beside
  // its functions/.
  cpSync(assembly!, join(dir, 'cdk.out'), { recursive: true })
  // Copying node_modules would take minutes; nothing in it is the project's own code.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

beforeAll(async () => {
  if (!hasAssembly) return
  copy = copyProject()
  expect(existsSync(join(copy, 'functions'))).toBe(false)
  const port = await freePort()
  const tableName = `copy-${randomUUID()}`
  // A database of its own in the run's DynamoDB Local (lib/platform/db/local.ts), read by this file too.
  const database = `copy${randomUUID().replaceAll('-', '')}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    DYNAMODB_LOCAL_DATABASE: database,
    TABLE_NAME: tableName,
    LOCAL_SERVER_FILE: serverFile(),
  }
  // The copy's own local keys, as on a new clone.
  for (const name of ['KEYS_DIR', 'DATA_KEY_DIR', 'API_BUNDLES', 'STAGE']) delete env[name]
  server = await npmStart({
    cwd: copy,
    args: ['--bundles=cdk.out'],
    env,
    serverFile: serverFile(),
    timeoutMs: 120_000,
  })
  // The server writes its file once it answers; the line saying what it serves may reach the pipe a
  // moment later.
  const started = server
  await eventually(() => expect(started.output()).toContain('from the Lambda bundles'), 10_000)
  url = `http://127.0.0.1:${port}`
  clients = devClients(url)
  // This file reads the copy's table directly (the outbox) through lib/, which reads these on first use.
  process.env.TABLE_NAME = tableName
  process.env.DYNAMODB_ENDPOINT = env.DYNAMODB_ENDPOINT
  process.env.DYNAMODB_LOCAL_DATABASE = database
  process.env.AWS_REGION ??= 'eu-west-1'
}, 180_000)

afterAll(async () => {
  await server?.stop()
  if (copy) rmSync(copy, { recursive: true, force: true })
})

/** Open routes whose own answer to the placeholder values is a refusal, not a 200. */
const OWN_REFUSAL: Record<string, number> = { '/verify/r/{device_id}/{counter}': 400 }

/** A concrete path for a route: each path parameter gets a plausible value. */
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-1`)

describe.runIf(hasAssembly)(
  'a copy with cdk.out and without functions/, under npm start -- --bundles',
  () => {
    it('answers every route from its bundle, in its area record', { timeout: 180_000 }, async () => {
      const failed: string[] = []
      for (const route of routes) {
        const hasBody = route.method !== 'GET'
        const reply = await send(`${url}${concrete(route.path)}`, {
          method: route.method,
          headers: hasBody ? { 'content-type': 'application/json' } : {},
          body: hasBody ? '{}' : undefined,
        })
        const open = route.auth === 'none' || route.allowAnonymous
        // A bundle that failed to load is the local server's 500, never the route's own answer. The
        // receipt verification page answers a placeholder device id with its own 400 page.
        const expected = open ? (OWN_REFUSAL[route.path] ?? 200) : 401
        if (reply.status !== expected) failed.push(`${route.method} ${route.path}: ${reply.status}`)
      }
      expect(failed, server?.output()).toEqual([])
      // And what no route takes, the catch-all's bundle.
      expect((await send(`${url}/api/v1/no-such-route`)).status).toBe(404)
    })

    it('indexes a signed transfer into the merchant history (history indexer)', async () => {
      const body = transferBody({ amount: 25 })
      const sent = await clients.switch.post<any>('/api/v1/transactions/transfer', body)
      expect(sent.status).toBe(200)
      expect(sent.body.responseCode).toBe('00')
      const history = await eventually(async () => {
        const reply = await clients.merchant.get<any>(
          `/api/v1/merchant/transactions?reference=${body.merchantReference}`,
        )
        expect(reply.body.data.content).toHaveLength(1)
        return reply.body.data.content[0]
      })
      expect(history).toMatchObject({ providerReference: sent.body.providerReference, status: 'SUCCESSFUL' })
    })

    it("sends a transfer's outcome notification (outbox sender)", async () => {
      const productCode = 'COPYTEST'
      expect(
        (
          await clients.notify.post('/notification/template', {
            productCode,
            messageType: 0,
            message: 'Paid NGN {{amount}} for {{merchantReference}}',
          })
        ).status,
      ).toBeLessThan(300)
      expect((await clients.notify.post('/notification/email', { email: ['ops@example.com'] })).status).toBe(
        201,
      )
      const sent = await clients.switch.post<any>('/api/v1/transactions/transfer', {
        requestId: `REQ-${randomUUID()}`,
        stan: '333333',
        processingCode: '400000',
        merchantId: 'MRC0002',
        merchantReference: `ORD-${randomUUID()}`,
        accountNumber: '0123456789',
        amount: 30,
        currency: 'NGN',
        productCode,
      })
      expect(sent.body.responseCode).toBe('00')
      await eventually(async () =>
        expect(await getOutboxItem(sent.body.providerReference)).toMatchObject({
          status: 'SENT',
          recipients: ['ops@example.com'],
        }),
      )
    })

    it('fans an event out and delivers it, signed, to a local receiver (webhook fan-out and delivery)', async () => {
      const receiver = await startEventReceiver()
      try {
        const subscription = await clients.admin.post<any>('/api/v1/webhooks', {
          url: receiver.url,
          events: ['invoice.validated'],
        })
        expect(subscription.status).toBe(201)
        receiver.secret = subscription.body.data.secret
        const invoice = buildInvoice()
        expect((await clients.si.post('/api/v1/si/validate', invoice)).status).toBe(200)
        const [delivered] = await eventually(() => {
          const mine = receiver.unique().filter((e) => e.event.data.irn === invoice.irn)
          expect(mine).toHaveLength(1)
          return mine
        })
        expect(delivered).toMatchObject({ verified: true, asPublished: true })
        expect(delivered!.event).toMatchObject({
          type: 'invoice.validated',
          business_id: DEV.supplier.businessId,
        })
      } finally {
        await receiver.close()
      }
    })

    it('works a submitted batch through to COMPLETED (batch worker)', { timeout: 120_000 }, async () => {
      const accepted = await clients.app.post<any>('/api/v1/app/invoice/batch', {
        action: 'validate',
        invoices: [buildInvoice(), buildInvoice()],
      })
      expect(accepted.status).toBe(202)
      const batch = await eventually(async () => {
        const reply = await clients.app.get<any>(`/api/v1/app/invoice/batch/${accepted.body.batch_id}`)
        expect(reply.body.status).toBe('COMPLETED')
        return reply.body
      }, 90_000)
      expect(batch).toMatchObject({ total: 2, succeeded: 2 })
    })

    it('runs the daily reconciliation from its bundle, finding the ledger and histories in agreement', () => {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/local/invoke.ts', 'reconcile-daily'],
        {
          cwd: copy,
          // Its log at INFO (the suite's is quieter), for the line that says it ran to the end.
          env: { ...process.env, LOCAL_SERVER_FILE: serverFile(), LOG_LEVEL: 'INFO' },
          encoding: 'utf8',
          timeout: 120_000,
        },
      )
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
      const lines = run.stdout.trim().split('\n')
      expect(JSON.parse(lines.at(-1)!)).toEqual({ differences: 0 })
      // It scanned what the tests above wrote: its log line counts them.
      expect(run.stdout).toContain('reconciliation finished')
    })
  },
)
