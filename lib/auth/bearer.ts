import { type BearerKind, type BearerToken, getBearer } from './credentials.ts'

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')
  return match?.[1]
}

/**
 * The active token record of the given kind, or undefined. The lookup is by the token's SHA-256, so
 * the comparison happens inside DynamoDB's key match on a hash, never on the secret itself.
 */
export async function findBearer(
  header: string | undefined,
  kind: BearerKind,
): Promise<BearerToken | undefined> {
  const token = bearerToken(header)
  if (!token) return undefined
  const record = await getBearer(token)
  return record?.active && record.kind === kind ? record : undefined
}
