import { readFileSync } from 'node:fs'
import { catalogueTables } from '#lib/service/error-catalogue.ts'

/**
 * The sections the reference opens with, before any operation (as Stripe's does): Authentication,
 * how to sign a request with a worked example in curl and with the client package, and Errors, the
 * records and the whole error catalogue. They are the document's `info.description`, whose headings
 * the docs page (/api/docs) lists first in its navigation. The worked signature is the first Area A
 * vector of docs/signing-vectors.json, which the service's verifier is tested to accept.
 */

interface SigningVector {
  secret: string
  method: string
  path: string
  timestamp: string
  body: string
  bodyHash: string
  canonicalEscaped: string
  signature: string
}

function workedVector(): SigningVector {
  const file = new URL('../../../docs/signing-vectors.json', import.meta.url)
  return (JSON.parse(readFileSync(file, 'utf8')) as { areaA: SigningVector[] }).areaA[0]!
}

function authentication(): string {
  const v = workedVector()
  return `# Authentication

Each area has its own scheme (each operation names its own under "Authorizations"):

- **Area A** (e-invoicing): \`x-api-key\`, \`x-api-timestamp\` (RFC 3339, within 5 minutes of the
  server's clock) and \`x-api-signature\` = Base64(HMAC-SHA256(api_secret, canonical)), where
  canonical is four lines joined by \`\\n\` (no trailing newline): the method, the path plus \`?\` and
  the query exactly as sent, the timestamp exactly as sent, and the lower-case hex SHA-256 of the
  exact body bytes (of zero bytes for no body). The secret itself is never sent; a signed request is
  accepted once.
- **Area B** (bank transactions): \`Authorization: Bearer <token>\`, \`X-Timestamp\`, \`X-Nonce\` and
  \`X-Signature\` over five lines: method, path, timestamp, nonce, body hash.
- **Area C** (merchant history): \`Authorization: Bearer <token>\` and \`x-Merchant-Id\`.
- **Area D** (notifications): \`Authorization: Bearer <admin key>\`.

## A signed request, worked

\`${v.method} ${v.path}\` at \`${v.timestamp}\` with the secret \`${v.secret}\` and the body
\`${v.body}\`: the body's SHA-256 is \`${v.bodyHash}\`, the canonical string
\`${v.canonicalEscaped}\`, and \`x-api-signature\` is \`${v.signature}\`.

With curl and openssl, against \`npm start\`'s development key (\`dev-si-key\` / \`dev-si-secret\`):

\`\`\`sh
BODY='${v.body}'
TS=$(date -u +%Y-%m-%dT%H:%M:%SZ)
HASH=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)
SIG=$(printf '%s\\n%s\\n%s\\n%s' ${v.method} ${v.path} "$TS" "$HASH" | openssl dgst -sha256 -hmac dev-si-secret -binary | openssl base64 -A)
curl -s -X ${v.method} http://127.0.0.1:3000${v.path} -H 'content-type: application/json' \\
  -H 'x-api-key: dev-si-key' -H "x-api-timestamp: $TS" -H "x-api-signature: $SIG" --data-raw "$BODY"
\`\`\`

With the client package (\`client/\`, \`@ng-einvoicing/client\`), which signs every request:

\`\`\`js
import { ApiClient } from '@ng-einvoicing/client'
const api = new ApiClient('http://127.0.0.1:3000', { area: 'A', credentials: { apiKey: 'dev-si-key', secret: 'dev-si-secret' } })
const reply = await api.post('${v.path}', ${v.body})
console.log(reply.status, reply.body)
\`\`\`

Signing in TypeScript, Python and bash: \`client/examples/\`; every vector: \`docs/signing-vectors.json\`.`
}

function errors(): string {
  return `# Errors

Every error reply carries a stable code: branch on the code, not the message (the message says the
same in words, with the values concerned). Where it is:

- **Area A**: \`errors: [{path, code, message}]\` (never empty on an error; a refusal of the request
  as a whole is one item with an empty \`path\`), with \`code\` the HTTP status on the record. A 403
  adds \`required_roles\`.
- **Areas B and C**: \`responseCode\`, and \`errors[].code\` for each field problem.
- **Area D**: \`errors: [{path, code, message}]\`.

${catalogueTables('##')}`
}

/** The document's opening sections, as Markdown. */
export const referenceGuide = (): string => `${authentication()}\n\n${errors()}`
