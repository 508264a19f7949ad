import * as z from 'zod'
import {
  issueApiClient,
  issueMerchantToken,
  issueNotifyAdminKey,
  issueSwitchClient,
  listCredentials,
  revokeApiClient,
  revokeBearer,
  rotateApiClientSecret,
  rotateSwitchSecret,
  setValidationMode,
  setWebhook,
} from '#lib/platform/auth/credentials.ts'
import { createBusiness } from '#lib/registry/businesses.ts'
import { Irn } from '#lib/irn/schemas.ts'
import { getMerchant } from '#lib/ledger/repository.ts'
import { TransferRequest } from '#lib/ledger/schemas.ts'
import { EmailRequest } from '#lib/notifications/schemas.ts'
import {
  auditApiClient,
  auditBearer,
  auditBearerRevoked,
  auditBusinessCreated,
  auditSwitchClient,
} from '#lib/platform/audit/credentials.ts'
import { cliActor } from '#lib/platform/audit/trail.ts'
import { fingerprint } from '#lib/platform/log.ts'
import { type Mode, parseMode } from '#lib/platform/mode.ts'
import type { Role } from '#lib/service/routes.ts'
import type { Command } from './command.ts'
import { note, printResult } from './output.ts'
import { checkedBy, modeOption, ONCE, optional, required, requiredTin } from './require.ts'

const ROLES: Role[] = ['SI', 'APP', 'ADMIN']

const MODE_OPTION = { mode: { type: 'string' } } as const
const MODE_HELP =
  '  --mode MODE          live (default) or test: a test-mode credential reaches test-mode data only'

/** What an issue prints about the mode, and what its audit event says: test only, live is the default. */
const testOnly = (mode: Mode): Record<string, string> => (mode === 'test' ? { mode } : {})

function parseRoles(value: string, help: string): Role[] {
  const roles = value.split(',').map((r) => r.trim().toUpperCase())
  const unknown = roles.filter((r) => !ROLES.includes(r as Role))
  if (unknown.length || !roles.length) {
    console.error(`--roles takes a comma-separated list of ${ROLES.join(', ')} (got ${value}).\n\n${help}`)
    process.exit(2)
  }
  return roles as Role[]
}

const businessCreateHelp = `business create: register a business (Area A) and print its business_id, service_id and certificate.

Options:
  --name NAME          legal name (required)
  --tin TIN            Taxpayer Identification Number (required): NNNNNNNN-NNNN, the 13-digit
                       Tax ID (NRS/JRB, May 2026) or TIN- and digits
  --service-id ID      8 letters/digits as assigned by the authority (default: generated)
  --email EMAIL        contact e-mail

Example: npm run cli -- business create --name "Acme Nig Ltd" --tin 12345678-0002`

const clientIssueHelp = `client issue: issue an Area A API key and secret for a business.

Options:
  --business ID        business_id (required)
  --roles LIST         comma-separated SI, APP, ADMIN (required)
  --webhook URL        the client's webhook endpoint (optional)
${MODE_HELP}

Example: npm run cli -- client issue --business 11111111-1111-4111-8111-111111111111 --roles SI,APP --mode test`

const switchIssueHelp = `switch issue: a payment switch client for the signed transaction endpoints.

Options:
  --name NAME          a label (required)
${MODE_HELP}`

const merchantIssueHelp = `merchant issue: a bearer token for GET /api/v1/merchant/transactions, valid only with x-Merchant-Id
equal to this merchant.

Options:
  --merchant ID        the merchant id (required), e.g. MRC0003: a merchant already added with
                       npm run cli -- merchant add (an unknown one is refused)
${MODE_HELP}`

const simple = (
  name: string,
  summary: string,
  options: Command['options'],
  help: string,
  run: Command['run'],
): Command => ({
  name,
  summary,
  options,
  help,
  run,
})

export const commands: Command[] = [
  simple(
    'business create',
    'register a business (prints business_id, service_id, certificate)',
    {
      name: { type: 'string' },
      tin: { type: 'string' },
      'service-id': { type: 'string' },
      email: { type: 'string' },
    },
    businessCreateHelp,
    async (v) => {
      const serviceId = optional(v, 'service-id')
      const email = optional(v, 'email')
      const business = await createBusiness({
        name: required(v, 'name', businessCreateHelp),
        tin: requiredTin(v, businessCreateHelp),
        // The authority's 8 characters, which must fit the IRNs the API accepts (its Irn schema).
        serviceId:
          serviceId &&
          checkedBy(
            z
              .string()
              .length(8)
              .refine((id) => Irn.safeParse(`INV1-${id}-20260101`).success),
            serviceId,
            '--service-id must be 8 letters or digits, as the authority assigns it',
            businessCreateHelp,
          ),
        // The e-mail check of the API's notification addresses.
        email:
          email &&
          checkedBy(
            EmailRequest.shape.email.element,
            email,
            '--email must be an e-mail address, e.g. ops@example.com',
            businessCreateHelp,
          ),
      })
      await auditBusinessCreated(cliActor(), business.businessId)
      printResult({
        business_id: business.businessId,
        service_id: business.serviceId,
        tin: business.tin,
        certificate: business.certificate,
      })
    },
  ),
  simple(
    'client issue',
    'issue an Area A API key and secret (printed once)',
    { business: { type: 'string' }, roles: { type: 'string' }, webhook: { type: 'string' }, ...MODE_OPTION },
    clientIssueHelp,
    async (v) => {
      const mode = modeOption(v, clientIssueHelp)
      const issued = await issueApiClient({
        businessId: required(v, 'business', clientIssueHelp),
        roles: parseRoles(required(v, 'roles', clientIssueHelp), clientIssueHelp),
        webhookUrl: optional(v, 'webhook'),
        mode,
      })
      await auditApiClient('CREDENTIAL_ISSUED', cliActor(), issued.apiKey, {
        roles: issued.client.roles.join(','),
        ...testOnly(mode),
      })
      printResult({ api_key: issued.apiKey, api_secret: issued.secret, roles: issued.client.roles, mode })
      note(ONCE)
    },
  ),
  simple(
    'client revoke',
    'revoke an Area A API key',
    { key: { type: 'string' } },
    'client revoke: revoke an Area A API key; requests signed with it are refused from now on.\n\nOptions:\n  --key API_KEY   (required)',
    async (v) => {
      const key = required(v, 'key', 'client revoke --key API_KEY')
      await revokeApiClient(key)
      await auditApiClient('CREDENTIAL_REVOKED', cliActor(), key)
      console.log(`Revoked ${fingerprint(key)}`)
    },
  ),
  simple(
    'client rotate',
    'add a new secret to an Area A key (the previous one keeps working)',
    { key: { type: 'string' } },
    'client rotate: add a new secret to an API key. The key keeps its two newest secrets, so the previous one\nworks until the client has switched; rotating again retires it.\n\nOptions:\n  --key API_KEY   (required)',
    async (v) => {
      const key = required(v, 'key', 'client rotate --key API_KEY')
      const secret = await rotateApiClientSecret(key)
      await auditApiClient('CREDENTIAL_ROTATED', cliActor(), key)
      printResult({ api_secret: secret })
      note(ONCE)
    },
  ),
  simple(
    'client set-webhook',
    "set (or with --clear remove) an Area A client's webhook URL",
    { key: { type: 'string' }, url: { type: 'string' }, clear: { type: 'boolean' } },
    'client set-webhook: the URL transmit delivers invoices to and the health check probes.\n\nOptions:\n  --key API_KEY   (required)\n  --url URL       the webhook URL: https:// to a name or address that resolves to public addresses only\n  --clear         remove the webhook instead',
    async (v) => {
      const key = required(v, 'key', 'client set-webhook --key API_KEY --url URL')
      const url = v.clear ? undefined : required(v, 'url', 'client set-webhook --key API_KEY --url URL')
      await setWebhook(key, url)
      await auditApiClient('WEBHOOK_SET', cliActor(), key, url ? { webhook: url } : { webhook: 'removed' })
      console.log(
        url ? `Webhook of ${fingerprint(key)} set to ${url}` : `Webhook of ${fingerprint(key)} removed`,
      )
    },
  ),
  simple(
    'client set-validation-mode',
    "set an Area A client's default invoice validation mode (strict or lenient)",
    { key: { type: 'string' }, mode: { type: 'string' } },
    "client set-validation-mode: strict (the default) fails invoices whose arithmetic does not add up;\nlenient reports those findings as warnings. A request's x-validation-mode header overrides it.\n\nOptions:\n  --key API_KEY       (required)\n  --mode MODE         strict or lenient (required)",
    async (v) => {
      const usage = 'client set-validation-mode --key API_KEY --mode strict|lenient'
      const key = required(v, 'key', usage)
      const mode = required(v, 'mode', usage)
      if (mode !== 'strict' && mode !== 'lenient') {
        console.error(`--mode must be strict or lenient.\n\n${usage}`)
        process.exit(2)
      }
      await setValidationMode(key, mode)
      await auditApiClient('VALIDATION_MODE_SET', cliActor(), key, { mode })
      console.log(`Validation mode of ${fingerprint(key)} set to ${mode}`)
    },
  ),
  simple(
    'switch issue',
    'issue an Area B switch client (bearer token and HMAC secret, printed once)',
    { name: { type: 'string' }, ...MODE_OPTION },
    switchIssueHelp,
    async (v) => {
      const mode = modeOption(v, switchIssueHelp)
      const issued = await issueSwitchClient({ name: required(v, 'name', switchIssueHelp), mode })
      await auditSwitchClient('CREDENTIAL_ISSUED', cliActor(), issued.clientId, testOnly(mode))
      printResult({
        client_id: issued.clientId,
        bearer_token: issued.token,
        hmac_secret: issued.secret,
        mode,
      })
      note(ONCE)
    },
  ),
  simple(
    'switch rotate',
    'add a new HMAC secret to a switch client',
    { client: { type: 'string' } },
    'switch rotate: add a new HMAC secret (the previous one keeps working until the next rotation).\n\nOptions:\n  --client CLIENT_ID   (required)',
    async (v) => {
      const clientId = required(v, 'client', 'switch rotate --client CLIENT_ID')
      const secret = await rotateSwitchSecret(clientId)
      await auditSwitchClient('CREDENTIAL_ROTATED', cliActor(), clientId)
      printResult({ hmac_secret: secret })
      note(ONCE)
    },
  ),
  simple(
    'merchant issue',
    'issue an Area C bearer token bound to one merchant id',
    { merchant: { type: 'string' }, ...MODE_OPTION },
    merchantIssueHelp,
    async (v) => {
      const mode = modeOption(v, merchantIssueHelp)
      const merchantId = checkedBy(
        TransferRequest.shape.merchantId,
        required(v, 'merchant', merchantIssueHelp),
        '--merchant must be a merchant id of 1 to 32 letters, digits, "_" or "-"',
        merchantIssueHelp,
      )
      // A token for a merchant transfers cannot pay would read an empty history forever: refused,
      // saying how to add it (merchants are one list for both modes).
      if (!(await getMerchant(merchantId))) {
        console.error(
          `No merchant ${merchantId} is registered: add it first with\n  npm run cli -- merchant add --id ${merchantId} --name "Its name"\nthen issue its token.`,
        )
        process.exit(2)
      }
      const issued = await issueMerchantToken({ merchantId, mode })
      await auditBearer('CREDENTIAL_ISSUED', cliActor(), 'merchant', issued.merchantId, testOnly(mode))
      printResult({ merchant_id: issued.merchantId, bearer_token: issued.token, mode })
      note(ONCE)
    },
  ),
  simple(
    'notify-admin issue',
    'issue an Area D notification admin key',
    {},
    'notify-admin issue: a bearer key for the /notification endpoints.',
    async () => {
      const issued = await issueNotifyAdminKey()
      await auditBearer('CREDENTIAL_ISSUED', cliActor(), 'notify-admin', issued.adminKeyId)
      printResult({ admin_key_id: issued.adminKeyId, bearer_key: issued.token })
      note(ONCE)
    },
  ),
  simple(
    'token revoke',
    'revoke a bearer token (switch, merchant or notification admin)',
    { token: { type: 'string' } },
    'token revoke: revoke a bearer token of Areas B, C or D.\n\nOptions:\n  --token TOKEN   (required)',
    async (v) => {
      const token = required(v, 'token', 'token revoke --token TOKEN')
      await revokeBearer(token)
      await auditBearerRevoked(cliActor(), token)
      console.log(`Revoked ${fingerprint(token, 'token')}`)
    },
  ),
  simple(
    'credentials list',
    'list credentials of one kind, secrets left out and API keys as fingerprints',
    { kind: { type: 'string' } },
    'credentials list: list credentials with secrets and tokens left out, each with its mode (live or test).\n\nOptions:\n  --kind KIND   business, api-client, switch-client, switch, merchant or notify-admin (required)',
    async (v) => {
      const kind = required(v, 'kind', 'credentials list --kind KIND')
      const rows = await listCredentials(kind)
      // The count first, then one JSON line per credential.
      console.log(`${rows.length} ${kind} credential${rows.length === 1 ? '' : 's'}`)
      for (const row of rows) {
        // API keys are identifiers but also half a credential: only their start is shown.
        if (typeof row.apiKey === 'string') row.apiKey = fingerprint(row.apiKey)
        // Every credential has a mode; the record holds it only when it is test (CONTRACT 15).
        if (kind !== 'business') row.mode = parseMode(row.mode) ?? 'live'
        console.log(JSON.stringify(row))
      }
    },
  ),
]
