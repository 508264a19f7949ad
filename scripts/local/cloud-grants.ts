import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { QUEUE_URL_ENV, type QueueName } from '#lib/platform/async/queue.ts'
import type { Access, EncryptionRecord, TableAction, TableGrant } from '#lib/platform/iam/access.ts'
import { ENCRYPTION_RECORDS, mergeAccess, TABLE_ACTIONS } from '#lib/platform/iam/access.ts'
import { type ModeSecret, SECRET_ENV, type ServiceSecret } from '#lib/service/routes.ts'

/**
 * Each function's grants as a `cdk synth` wrote them, read back from its cloud assembly (`cdk.out`)
 * into the Access the local IAM guard holds the function to (scripts/local/iam.ts) when the bundles
 * of that synth run: what runs is what deploys, permissions included.
 *
 * Every *.template.json is read, whatever the stacks are called or how they are split: a function is
 * found by its description (which ends with its functionId), its role by the function's Role, and the
 * role's statements in every AWS::IAM::Policy naming it. References are followed through GetAtt, Ref,
 * Fn::Join, a nested stack's parameters and cross-stack exports, so a table ARN imported from the data
 * stack is still the table. A statement this cannot translate throws: an unknown permission must not
 * pass silently as "allowed" or "refused".
 */

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation template JSON, read field by field
type Json = any

interface Template {
  file: string
  Resources: Record<string, { Type: string; Properties?: Json; Metadata?: Record<string, Json> }>
  Outputs?: Record<string, { Value: Json; Export?: { Name: Json } }>
  Parameters?: Record<string, Json>
}

/** A resource a value refers to, with what a Fn::Join appends to it (`/index/gsi1`). */
interface Target {
  template: Template
  logicalId: string
  suffix: string
}

/** Permissions of a function's event sources and runtime, which no Access describes. */
const EVENT_SOURCE_ACTIONS = new Set([
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:DeleteMessage',
])
/** What CDK's grantConsumeMessages adds beside the event source's actions. */
const CONSUME_GRANT_EXTRAS = new Set(['sqs:GetQueueUrl', 'sqs:GetQueueAttributes'])
const RUNTIME_SERVICES = new Set(['logs', 'xray'])

export class CloudAssembly {
  readonly templates: Template[]
  /** Nested template file -> the parent's AWS::CloudFormation::Stack resource that deploys it. */
  private readonly parents = new Map<string, { template: Template; properties: Json }>()
  private readonly exports = new Map<string, { template: Template; value: Json }>()

  constructor(templates: Template[]) {
    this.templates = templates
    for (const template of templates) {
      for (const resource of Object.values(template.Resources ?? {})) {
        const asset = resource.Metadata?.['aws:asset:path']
        if (resource.Type === 'AWS::CloudFormation::Stack' && typeof asset === 'string') {
          this.parents.set(asset, { template, properties: resource.Properties ?? {} })
        }
      }
      for (const output of Object.values(template.Outputs ?? {})) {
        if (typeof output.Export?.Name === 'string') {
          this.exports.set(output.Export.Name, { template, value: output.Value })
        }
      }
    }
  }

  static read(cdkOut: string): CloudAssembly {
    const files = readdirSync(cdkOut).filter((f) => f.endsWith('.template.json'))
    return new CloudAssembly(
      files.map(
        (file) => ({ file, ...(JSON.parse(readFileSync(join(cdkOut, file), 'utf8')) as object) }) as Template,
      ),
    )
  }

  /** What `value`, found in `template`, refers to; undefined for a literal or a pseudo parameter. */
  target(template: Template, value: Json): Target | undefined {
    if (value === null || typeof value !== 'object') return undefined
    if (typeof value.Ref === 'string') {
      if (value.Ref.startsWith('AWS::')) return undefined
      if (template.Parameters?.[value.Ref] !== undefined) {
        const parent = this.parents.get(template.file)
        const passed = parent?.properties.Parameters?.[value.Ref]
        if (!parent || passed === undefined)
          throw new Error(`${template.file}: parameter ${value.Ref} has no source`)
        return this.target(parent.template, passed)
      }
      return { template, logicalId: value.Ref, suffix: '' }
    }
    if (value['Fn::GetAtt'] !== undefined) {
      const getAtt = value['Fn::GetAtt']
      const logicalId = Array.isArray(getAtt) ? getAtt[0] : String(getAtt).split('.')[0]
      return { template, logicalId, suffix: '' }
    }
    if (value['Fn::ImportValue'] !== undefined) {
      const name = value['Fn::ImportValue']
      const exported = typeof name === 'string' ? this.exports.get(name) : undefined
      if (!exported)
        throw new Error(`${template.file}: import ${JSON.stringify(name)} is exported by no template`)
      return this.target(exported.template, exported.value)
    }
    if (Array.isArray(value['Fn::Join'])) {
      const [separator, parts] = value['Fn::Join'] as [string, Json[]]
      const targets = parts.map((part) => this.target(template, part))
      const found = targets.filter((t) => t !== undefined)
      if (found.length !== 1) return undefined
      const at = targets.findIndex((t) => t !== undefined)
      const rest = parts.slice(at + 1)
      if (rest.some((p) => typeof p !== 'string')) return undefined
      return { ...found[0]!, suffix: found[0]!.suffix + separator + rest.join(separator) }
    }
    return undefined
  }

  resourceOf(target: Target) {
    const resource = target.template.Resources[target.logicalId]
    if (!resource) throw new Error(`${target.template.file}: no resource ${target.logicalId}`)
    return resource
  }
}

const sameTarget = (a: Target | undefined, b: Target | undefined) =>
  Boolean(a && b && a.template === b.template && a.logicalId === b.logicalId)

const list = (value: Json): Json[] => (Array.isArray(value) ? value : [value])

/**
 * The Access of each function in `wanted` (functionIds), read from the templates. Throws for a wanted
 * function the assembly lacks, and for any statement of theirs it cannot translate.
 */
export function grantsFromTemplates(assembly: CloudAssembly, wanted: Iterable<string>): Map<string, Access> {
  const want = new Set(wanted)
  const out = new Map<string, Access>()
  for (const template of assembly.templates) {
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::Lambda::Function') continue
      const functionId =
        String(resource.Properties?.Description ?? '')
          .split(' ')
          .pop() ?? ''
      if (!want.has(functionId)) continue
      if (out.has(functionId)) throw new Error(`Two functions in the cloud assembly are ${functionId}`)
      out.set(functionId, accessOfFunction(assembly, template, logicalId, functionId))
    }
  }
  const missing = [...want].filter((id) => !out.has(id))
  if (missing.length) throw new Error(`The cloud assembly has no function ${missing.join(', ')}`)
  return out
}

/** Reads `cdk.out` (every template) for the functions in `wanted`. */
export function grantsFromCloudAssembly(cdkOut: string, wanted: Iterable<string>): Map<string, Access> {
  return grantsFromTemplates(CloudAssembly.read(cdkOut), wanted)
}

function accessOfFunction(
  assembly: CloudAssembly,
  template: Template,
  logicalId: string,
  functionId: string,
): Access {
  const fn = template.Resources[logicalId]!
  const role = assembly.target(template, fn.Properties?.Role)
  if (!role) throw new Error(`${functionId}: its role is not a resource of the assembly`)
  const env: Record<string, Json> = fn.Properties?.Environment?.Variables ?? {}
  const fromEnv = (name: string) =>
    env[name] === undefined ? undefined : assembly.target(template, env[name])
  // The on-failure queues of its event source mappings: the mapping's, not the function's own sends.
  const onFailure: Target[] = []
  for (const t of assembly.templates) {
    for (const r of Object.values(t.Resources ?? {})) {
      if (r.Type !== 'AWS::Lambda::EventSourceMapping') continue
      if (!sameTarget(assembly.target(t, r.Properties?.FunctionName), { template, logicalId, suffix: '' }))
        continue
      const destination = assembly.target(t, r.Properties?.DestinationConfig?.OnFailure?.Destination)
      if (destination) onFailure.push(destination)
    }
  }
  const parts: Access[] = []
  for (const t of assembly.templates) {
    for (const r of Object.values(t.Resources ?? {})) {
      if (r.Type !== 'AWS::IAM::Policy') continue
      if (!list(r.Properties?.Roles ?? []).some((ref: Json) => sameTarget(assembly.target(t, ref), role)))
        continue
      for (const statement of list(r.Properties.PolicyDocument?.Statement ?? [])) {
        parts.push(translate(assembly, t, statement, functionId, fromEnv, onFailure))
      }
    }
  }
  return mergeAccess(...parts)
}

function translate(
  assembly: CloudAssembly,
  template: Template,
  statement: Json,
  functionId: string,
  fromEnv: (name: string) => Target | undefined,
  onFailure: Target[],
): Access {
  const fail = (why: string): never => {
    throw new Error(
      `${functionId}: cannot read this statement as an Access (${why}): ${JSON.stringify(statement)}`,
    )
  }
  if (statement.Effect !== 'Allow') fail('not an Allow')
  const actions = list(statement.Action).map(String)
  const services = new Set(actions.map((a) => a.split(':')[0]))
  if (services.size !== 1) fail('actions of several services')
  const service = [...services][0]!
  if (RUNTIME_SERVICES.has(service)) return {}
  // A queue's consume grant (its event source mapping's) comes with GetQueueUrl and
  // GetQueueAttributes: the mapping's too, when the function does not also send to that queue.
  const consumes = actions.includes('sqs:ReceiveMessage')
  const own = actions.filter(
    (a) => !EVENT_SOURCE_ACTIONS.has(a) && !(consumes && CONSUME_GRANT_EXTRAS.has(a)),
  )
  if (own.length === 0) return {}
  const targets = list(statement.Resource).map((r) => assembly.target(template, r))
  const typeOf = (t: Target | undefined) => (t ? assembly.resourceOf(t).Type : undefined)
  const condition = statement.Condition as Record<string, Record<string, Json>> | undefined
  const conditionKeys = Object.entries(condition ?? {}).flatMap(([op, keys]) =>
    Object.keys(keys).map((key) => `${op} ${key}`),
  )

  switch (service) {
    case 'dynamodb': {
      const tableActions = own.map((a) => a.slice('dynamodb:'.length))
      const unknown = tableActions.filter((a) => !TABLE_ACTIONS.includes(a as TableAction))
      if (unknown.length) fail(`table actions outside the model: ${unknown.join(', ')}`)
      const indexes: string[] = []
      for (const t of targets) {
        if (!['AWS::DynamoDB::Table', 'AWS::DynamoDB::GlobalTable'].includes(typeOf(t) ?? ''))
          fail('not the table')
        const index = /^\/index\/([A-Za-z0-9_.-]+)$/.exec(t!.suffix)
        if (index) indexes.push(index[1]!)
        else if (t!.suffix !== '') fail(`table resource ${t!.suffix}`)
      }
      if (conditionKeys.some((k) => k !== 'ForAllValues:StringLike dynamodb:LeadingKeys')) {
        fail('a condition other than ForAllValues:StringLike dynamodb:LeadingKeys')
      }
      const patterns = condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']
      const keys = patterns === undefined ? undefined : list(patterns).map(String)
      if (keys?.some((k) => !k.endsWith('*') || k.slice(0, -1).includes('*')))
        fail('a LeadingKeys pattern not `<prefix>*`')
      const grant: TableGrant = {
        actions: tableActions as TableAction[],
        ...(keys ? { keys: keys.map((k) => k.slice(0, -1)) } : {}),
        ...(indexes.length ? { indexes: indexes as TableGrant['indexes'] & string[] } : {}),
      }
      return { table: [grant] }
    }
    case 'kms': {
      if (!targets.every((t) => typeOf(t) === 'AWS::KMS::Key')) fail('not the data key')
      if (conditionKeys.join() !== 'StringEquals kms:EncryptionContext:record') {
        fail('kms without a kms:EncryptionContext:record condition')
      }
      const records = list(condition!.StringEquals!['kms:EncryptionContext:record']).map(String)
      const unknown = records.filter((r) => !ENCRYPTION_RECORDS.includes(r as EncryptionRecord))
      if (unknown.length) fail(`encryption records outside the model: ${unknown.join(', ')}`)
      const decrypts = own.filter((a) => a === 'kms:Decrypt')
      const encrypts = own.filter((a) => a === 'kms:GenerateDataKey' || a === 'kms:Encrypt')
      if (decrypts.length + encrypts.length !== own.length)
        fail('kms actions outside Decrypt, GenerateDataKey, Encrypt')
      return {
        ...(decrypts.length ? { decrypt: records as EncryptionRecord[] } : {}),
        ...(encrypts.length ? { encrypt: records as EncryptionRecord[] } : {}),
      }
    }
    case 'secretsmanager': {
      if (own.some((a) => a !== 'secretsmanager:GetSecretValue' && a !== 'secretsmanager:DescribeSecret')) {
        fail('secretsmanager actions other than reading')
      }
      if (condition) fail('a condition on a secret')
      const names = targets.map((t) => {
        const name = (Object.keys(SECRET_ENV) as ModeSecret[]).find((n) =>
          sameTarget(fromEnv(SECRET_ENV[n]), t),
        )
        if (!name) return fail('a secret the function is not told of (no SECRET_ENV variable names it)')
        // Each key's test twin is granted with it (infra/constructs/grants.ts): one ServiceSecret.
        return name.replace(/^test-/, '') as ServiceSecret
      })
      return { secrets: [...new Set(names)] }
    }
    case 'sqs': {
      if (own.some((a) => !['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'].includes(a))) {
        fail('sqs actions other than sending')
      }
      if (condition) fail('a condition on a queue')
      const queues: QueueName[] = []
      for (const t of targets) {
        if (onFailure.some((d) => sameTarget(d, t))) continue
        const name = (Object.keys(QUEUE_URL_ENV) as QueueName[]).find((n) =>
          sameTarget(fromEnv(QUEUE_URL_ENV[n]), t),
        )
        queues.push(name ?? fail('a queue the function is not told of (no QUEUE_URL_ENV variable names it)'))
      }
      return queues.length ? { queues } : {}
    }
    case 'ses':
      if (own.some((a) => a !== 'ses:SendEmail')) fail('ses actions other than SendEmail')
      return { email: true }
    default:
      return fail(`the ${service} service`)
  }
}
