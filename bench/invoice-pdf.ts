/**
 * The invoice PDF (GET /api/{v}/invoices/{irn}/pdf, issue 25): warm latency, cold start and bundle.
 *
 *   npx tsx bench/invoice-pdf.ts        (RUNS=n import rounds, default 7; WARM=n requests, default 200)
 *
 * - bundle: functions/documents/invoice-pdf.ts built with the ApiFunction construct's own esbuild
 *   settings (esbuildOptionsFor), as bench/cold-start.ts builds every function;
 * - cold start: whole `node` processes importing that bundle, against bare node and the DynamoDB-only
 *   floor (bench/floor/dynamodb.ts), in interleaved rounds (medians), as bench/cold-start.ts times them;
 * - warm p50: the handler invoked in this process with signed API Gateway events for one signed
 *   invoice on its own DynamoDB Local (the QR text made by an untimed first request, as in use), and
 *   the rendering alone (lib/documents/pdf.ts) for comparison.
 *
 * Targets: warm p50 at most 50 ms, bundle under 600 KB, import at most 1.5x the DynamoDB-only floor.
 * Ends with "N of M within target". Also printed, with no target: what the PDF code itself costs
 * (lib/documents/pdf.ts, its writer and qrcode's encoder, bundled alone), in KB and import time.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda'
import { build } from 'esbuild'
import { signAreaA } from '#client/signing.ts'
import { esbuildOptionsFor, PROJECT_ROOT } from '../infra/constructs/api-function.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { importOf, median, timeInterleaved } from './import-timing.ts'
import { seededLocalTable } from './large-invoice-support.ts'

const RUNS = Number(process.env.RUNS ?? 7)
const WARM = Number(process.env.WARM ?? 200)
const HANDLER = 'functions/documents/invoice-pdf.ts'
const DYNAMODB_FLOOR = 'bench/floor/dynamodb.ts'
const PDF_CODE = 'lib/documents/pdf.ts'
const OUT_DIR = join(PROJECT_ROOT, '.bench', 'invoice-pdf')
const TARGET = { warmP50Ms: 50, bundleKb: 600, floorRatio: 1.5 }

const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function bundle(handler: string): Promise<{ file: string; kb: number }> {
  const file = join(OUT_DIR, handler.replace(/\.ts$/, '').replaceAll('/', '__'), 'index.mjs')
  await build(esbuildOptionsFor(handler, file))
  return { file, kb: statSync(file).size / 1024 }
}

function pdfEvent(irn: string): APIGatewayProxyEventV2 {
  const path = `/api/v1/invoices/${irn}/pdf`
  const now = new Date()
  return {
    version: '2.0',
    routeKey: 'GET /api/v1/invoices/{irn}/pdf',
    rawPath: path,
    rawQueryString: '',
    headers: {
      accept: 'application/pdf',
      ...signAreaA(DEV.clients.si, { method: 'GET', target: path, body: '' }),
    },
    pathParameters: { irn },
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey: 'GET /api/v1/invoices/{irn}/pdf',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  }
}

async function warm(): Promise<{ p50: number; p99: number; renderP50: number; bytes: number }> {
  // Metrics would print one EMF line per request among the results.
  const dynamo = await seededLocalTable({ POWERTOOLS_METRICS_DISABLED: 'true' })
  try {
    const { putSignedInvoice } = await import('../test/support-invoices/invoices.ts')
    const { handler } = await import('#functions/documents/invoice-pdf.ts')
    const { invoicePdf } = await import('#lib/documents/pdf.ts')
    const record = await putSignedInvoice()
    const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as unknown as Context
    const invoke = async () => {
      const reply = (await handler(pdfEvent(record.irn), context as never)) as {
        statusCode: number
        body: string
      }
      if (reply.statusCode !== 200) throw new Error(`invoice-pdf replied ${reply.statusCode}: ${reply.body}`)
      return reply
    }
    const first = await invoke()
    for (let i = 0; i < 20; i++) await invoke()
    const times: number[] = []
    for (let i = 0; i < WARM; i++) {
      const start = performance.now()
      await invoke()
      times.push(performance.now() - start)
    }
    const renders: number[] = []
    const input = {
      irn: record.irn,
      invoice: record.invoice!,
      qrText: 'A'.repeat(342),
      signedAt: record.signedAt!,
    }
    for (let i = 0; i < WARM; i++) {
      const start = performance.now()
      invoicePdf(input)
      renders.push(performance.now() - start)
    }
    return {
      p50: median(times),
      p99: percentile(times, 99),
      renderP50: median(renders),
      bytes: Buffer.from(first.body, 'base64').length,
    }
  } finally {
    await dynamo.stop()
  }
}

async function main() {
  mkdirSync(OUT_DIR, { recursive: true })
  const [fn, floor, pdf] = [await bundle(HANDLER), await bundle(DYNAMODB_FLOOR), await bundle(PDF_CODE)]
  const env = { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'eu-west-1' }
  const [bare, floorMs, fnMs, pdfMs] = timeInterleaved(
    [['-e', '0'], importOf(floor.file), importOf(fn.file), importOf(pdf.file)].map((args) => ({ args, env })),
    RUNS,
  )
  const w = await warm()
  const ratio = fnMs! / floorMs!
  const checks = [
    [
      `warm p50 ${w.p50.toFixed(1)} ms (p99 ${w.p99.toFixed(1)} ms; rendering alone ${w.renderP50.toFixed(1)} ms; ${(w.bytes / 1024).toFixed(1)} KB PDF) <= ${TARGET.warmP50Ms} ms`,
      w.p50 <= TARGET.warmP50Ms,
    ],
    [`bundle ${fn.kb.toFixed(1)} KB < ${TARGET.bundleKb} KB`, fn.kb < TARGET.bundleKb],
    [
      `import ${fnMs!.toFixed(1)} ms = ${ratio.toFixed(2)}x the DynamoDB-only floor (${floorMs!.toFixed(1)} ms, ${floor.kb.toFixed(1)} KB; bare node ${bare!.toFixed(1)} ms) <= ${TARGET.floorRatio}x`,
      ratio <= TARGET.floorRatio,
    ],
  ] as const
  console.log(`node ${process.version}, ${RUNS} interleaved import rounds, ${WARM} warm requests`)
  for (const [line, ok] of checks) console.log(`${ok ? 'ok  ' : 'OVER'} ${line}`)
  console.log(
    `     the PDF code alone (${PDF_CODE}, its writer, qrcode's encoder): ${pdf.kb.toFixed(1)} KB, import ${pdfMs!.toFixed(1)} ms (${signed(pdfMs! - bare!)} ms against bare node)`,
  )
  console.log(`${checks.filter(([, ok]) => ok).length} of ${checks.length} within target`)
}

await main()
