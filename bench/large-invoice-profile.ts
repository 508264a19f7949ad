/**
 * Where the CPU of a 1,000-line validate goes: a V8 CPU profile (inspector Session, in process) of
 * RUNS calls of the si/validate handler, as bench/large-invoice.ts makes them, summarised by self
 * time per function and by the first project or package frame on each sample's stack.
 *
 *   npx tsx bench/large-invoice-profile.ts            (RUNS=20; PROFILE_OUT=file.cpuprofile to keep it)
 */
import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import type { Context } from 'aws-lambda'
import { invoiceOfLines, newIrn } from '../test/fixtures/invoices/build.ts'
import { seededLocalTable, validateEvent } from './large-invoice-support.ts'

const RUNS = Number(process.env.RUNS ?? 20)

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

const ROOT = new URL('../', import.meta.url).href
const inProject = (url: string) => url.startsWith(ROOT) && !url.includes('node_modules')

/** Each sample's stage: the first rule whose test holds for its stack (innermost frame first). */
type Frame = Node['callFrame']
const STAGES: [string, (stack: Frame[]) => boolean][] = [
  ['garbage collection', (s) => s[0]!.functionName === '(garbage collector)'],
  ['canonical form + SHA-256', (s) => s.some((f) => f.functionName === 'canonicalInvoice')],
  ['note encryption', (s) => s.some((f) => f.functionName === 'encryptField')],
  ['stored copy (members into one buffer + gzip)', (s) => s.some((f) => f.functionName === 'storageOf')],
  ['validation', (s) => s.some((f) => f.functionName === 'validateInvoice')],
  ['body parse', (s) => s.some((f) => f.functionName === 'parseJsonBody')],
  ['authentication (not its DynamoDB call)', (s) => s.some((f) => /lib\/auth\/(?!replay)/.test(f.url))],
  ['log and metrics', (s) => s.some((f) => /powertools|lib\/log|lib\/metrics/.test(f.url))],
  [
    'AWS SDK, HTTP and sockets (DynamoDB calls)',
    (s) =>
      s.some(
        (f) =>
          /@smithy|@aws-sdk|node:_http|node:net|node:internal\/streams|readable-stream/.test(f.url) ||
          f.functionName === 'writev',
      ),
  ],
  ['Encryption SDK (materials, outside encryptField)', (s) => s.some((f) => /@aws-crypto/.test(f.url))],
  ['middy', (s) => s.some((f) => /@middy/.test(f.url))],
  ['project, other', (s) => s.some((f) => inProject(f.url))],
]

const short = (url: string) => {
  const nm = url.lastIndexOf('node_modules/')
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/')
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!
  }
  return url.startsWith(ROOT) ? url.slice(ROOT.length) : url || '(native)'
}

async function main() {
  const dynamo = await seededLocalTable()
  try {
    const { handler } = await import('#functions/invoice/si-validate.ts')
    const invoice = invoiceOfLines(1000)
    const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as unknown as Context
    const call = async () => {
      invoice.irn = newIrn()
      const reply = await handler(validateEvent(JSON.stringify(invoice)), context as never)
      if (reply.statusCode !== 200) throw new Error(`validate answered ${reply.statusCode}`)
    }
    for (let i = 0; i < 5; i++) await call()
    const session = new Session()
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 100 })
    // Event building (signing the body, JSON.stringify) is outside the handler: profile only the handler.
    const events = Array.from({ length: RUNS }, () => {
      invoice.irn = newIrn()
      return validateEvent(JSON.stringify(invoice))
    })
    await session.post('Profiler.start')
    const t0 = process.threadCpuUsage()
    for (const event of events) {
      const reply = await handler(event, context as never)
      if (reply.statusCode !== 200) throw new Error(`validate answered ${reply.statusCode}`)
    }
    const t1 = process.threadCpuUsage(t0)
    const { profile } = await session.post('Profiler.stop')
    session.disconnect()
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile))
    console.log(`thread CPU per call ${((t1.user + t1.system) / 1000 / RUNS).toFixed(2)} ms`)

    const nodes = new Map<number, Node>()
    const parent = new Map<number, number>()
    for (const n of profile.nodes as Node[]) {
      nodes.set(n.id, n)
      for (const c of n.children ?? []) parent.set(c, n.id)
    }
    const dt = profile.timeDeltas as number[]
    const samples = profile.samples as number[]
    const selfUs = new Map<number, number>()
    for (let i = 0; i < samples.length; i++)
      selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + (dt[i + 1] ?? 0))
    const total = [...selfUs.values()].reduce((a, b) => a + b, 0)
    const bySelf = new Map<string, number>()
    const byOwner = new Map<string, number>()
    const byProject = new Map<string, number>()
    const byStage = new Map<string, number>()
    for (const [id, us] of selfUs) {
      const n = nodes.get(id)!
      const name = n.callFrame.functionName || '(anonymous)'
      if (name === '(idle)' || name === '(program)') {
        bySelf.set(name, (bySelf.get(name) ?? 0) + us)
        continue
      }
      const stack: Frame[] = []
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
        stack.push(nodes.get(at)!.callFrame)
      const stage = STAGES.find(([, test]) => test(stack))?.[0] ?? 'other (event loop, promises)'
      byStage.set(stage, (byStage.get(stage) ?? 0) + us)
      const key = `${name} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
      bySelf.set(key, (bySelf.get(key) ?? 0) + us)
      // Walk up: the deepest project frame (not node_modules) and the stack's package.
      let cur: number | undefined = id
      let project: string | undefined
      const pkgs: string[] = []
      while (cur !== undefined) {
        const f = nodes.get(cur)!.callFrame
        if (inProject(f.url) && !project)
          project = `${f.functionName || '(anon)'} ${short(f.url)}:${f.lineNumber + 1}`
        if (f.url.includes('node_modules')) pkgs.push(short(f.url))
        cur = parent.get(cur)
      }
      const owner = pkgs[0] ?? (n.callFrame.url ? short(n.callFrame.url) : `(native) under ${project ?? '?'}`)
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + us)
      const p = project ?? '(no project frame)'
      byProject.set(p, (byProject.get(p) ?? 0) + us)
    }
    const print = (title: string, m: Map<string, number>, top = 30) => {
      console.log(`\n${title} (ms per call)`)
      for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
        console.log(`${(us / 1000 / RUNS).toFixed(2).padStart(7)}  ${k}`)
    }
    console.log(`profile total ${(total / 1000 / RUNS).toFixed(2)} ms per call (idle included)`)
    const busy = total - (bySelf.get('(idle)') ?? 0)
    console.log(`\nby stage, ms per call (sampled wall time, so inflated by load) and share of the busy time`)
    for (const [k, us] of [...byStage].sort((a, b) => b[1] - a[1]))
      console.log(
        `${(us / 1000 / RUNS).toFixed(2).padStart(7)} ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${k}`,
      )
    print('self time by function', bySelf, 40)
    print('by innermost package (or native under project frame)', byOwner, 30)
    print('by deepest project frame', byProject, 40)
  } finally {
    await dynamo.stop()
  }
}
await main()
