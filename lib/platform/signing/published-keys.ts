import { writeIf } from '#lib/platform/db/write.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import type { PublicJwk } from './jwk.ts'

/**
 * The JWKS lives in the table: a signing function publishes its key before it signs anything with
 * it, and GET /resource/public-keys reads the table only. So the public-keys function needs no access
 * to the private key, and a key that has ever signed stays published after a rotation.
 */
export async function publishKey(jwk: PublicJwk): Promise<void> {
  // Not written: already published (by this container earlier, or by another one), nothing to do.
  await writeIf({
    Put: {
      Item: { ...keys.signingKey(jwk.kid), jwk, publishedAt: new Date().toISOString() },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
}

/** Every published key, oldest first. */
export async function publishedKeys(): Promise<PublicJwk[]> {
  const found = await queryAll<{ jwk: PublicJwk; publishedAt: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.signingKeys() },
  })
  // Rebuilt member by member: DynamoDB keeps no order inside a map, and the JWKS reads better in RFC order.
  return found
    .sort((a, b) => a.publishedAt.localeCompare(b.publishedAt))
    .map(({ jwk }) => ({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid, use: jwk.use, alg: jwk.alg }))
}
