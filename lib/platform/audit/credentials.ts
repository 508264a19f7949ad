import { getBearer } from '#lib/platform/auth/bearer.ts'
import { getApiClient } from '#lib/platform/auth/credentials.ts'
import { type AuditEventType, type AuditInput, apiKeyActor, appendAudit } from './trail.ts'

/**
 * Audit events of credential changes. Issuing, rotating and revoking are several writes each in
 * lib/platform/auth/credentials.ts (guards, listings), so their events are appended right after the change
 * has succeeded, by the caller that knows who acted (the CLI: `cli:<os user>`).
 *
 * Credential ids in the trail never let anyone use the credential: an API key appears as its first
 * four characters and a SHA-256 prefix; a bearer token as the id it stands for (switch client id,
 * merchant id, admin key id); switch clients by their client id.
 */

type CredentialEvent = Extract<
  AuditEventType,
  'CREDENTIAL_ISSUED' | 'CREDENTIAL_ROTATED' | 'CREDENTIAL_REVOKED' | 'WEBHOOK_SET' | 'VALIDATION_MODE_SET'
>

const credentialEvent = (
  type: AuditEventType,
  actor: string,
  credentialId: string,
  detail: AuditInput['detail'],
  businessId?: string,
): AuditInput => ({
  type,
  actor,
  subject: { kind: 'CREDENTIAL', id: credentialId },
  ...(businessId ? { businessId } : {}),
  detail,
})

/** A business was registered. */
export const auditBusinessCreated = (actor: string, businessId: string) =>
  appendAudit({
    type: 'BUSINESS_CREATED',
    actor,
    subject: { kind: 'CREDENTIAL', id: `business:${businessId}` },
    businessId,
    detail: { kind: 'business' },
  })

/**
 * An event of an Area A API client, indexed under its business: the one given (self-service keys,
 * whose handler has read the client already), else the one the client record names.
 */
export async function auditApiClient(
  type: CredentialEvent,
  actor: string,
  apiKey: string,
  detail: AuditInput['detail'] = {},
  businessId?: string,
) {
  const business = businessId ?? (await getApiClient(apiKey))?.businessId
  return appendAudit(
    credentialEvent(type, actor, apiKeyActor(apiKey), { kind: 'api-client', ...detail }, business),
  )
}

/** An event of an Area B switch client (no business). */
export const auditSwitchClient = (
  type: CredentialEvent,
  actor: string,
  clientId: string,
  detail: AuditInput['detail'] = {},
) => appendAudit(credentialEvent(type, actor, `switch:${clientId}`, { kind: 'switch-client', ...detail }))

/** An event of a merchant or notification admin bearer token, named by what it stands for. */
export const auditBearer = (
  type: CredentialEvent,
  actor: string,
  kind: 'merchant' | 'notify-admin' | 'switch',
  subjectId: string,
  detail: AuditInput['detail'] = {},
) => appendAudit(credentialEvent(type, actor, `${kind}:${subjectId}`, { kind, ...detail }))

/** A bearer token was revoked: it is named by the id it stood for, read before the event. */
export async function auditBearerRevoked(actor: string, token: string) {
  const bearer = await getBearer(token)
  return auditBearer('CREDENTIAL_REVOKED', actor, bearer?.kind ?? 'merchant', bearer?.subjectId ?? 'unknown')
}
