import { readFile } from 'node:fs/promises'
import { signAreaA, signAreaB } from '#client/signing.ts'
import type { Command } from './command.ts'
import { optional, required } from './require.ts'

const help = `sign: print the headers of a signed request, as curl -H arguments, so you can call the API by hand.

Options:
  --area A|B          A: x-api-key/x-api-signature/x-api-timestamp (CONTRACT 2);
                      B: Authorization/X-Timestamp/X-Nonce/X-Signature (CONTRACT 6) (required)
  --method METHOD     GET, POST, PATCH... (default GET)
  --path TARGET       the path plus ?query exactly as you will send it (required)
  --body JSON         the exact body you will send (or --body-file PATH)
  --content-type TYPE the body's Content-Type header (default application/json; application/xml for UBL)
  --key KEY           Area A: the API key; Area B: the bearer token (required)
  --secret SECRET     the API secret or HMAC secret (or env SIGNING_SECRET, to keep it out of shell history)

The signature covers the exact bytes: send the body exactly as given here (curl --data-raw).
Example (against npm start):
  npm run --silent cli -- sign --area A --method GET --path /api/v1/resource/states --key dev-si-key --secret dev-si-secret`

export const commands: Command[] = [
  {
    name: 'sign',
    usesTable: false,
    summary: 'print signed request headers (Area A or B) for curl',
    help,
    options: {
      area: { type: 'string' },
      method: { type: 'string' },
      path: { type: 'string' },
      body: { type: 'string' },
      'body-file': { type: 'string' },
      'content-type': { type: 'string' },
      key: { type: 'string' },
      secret: { type: 'string' },
    },
    async run(v) {
      const area = required(v, 'area', help).toUpperCase()
      const method = (optional(v, 'method') ?? 'GET').toUpperCase()
      const target = required(v, 'path', help)
      const bodyFile = optional(v, 'body-file')
      const body = bodyFile ? await readFile(bodyFile) : (optional(v, 'body') ?? '')
      const key = required(v, 'key', help)
      const secret = optional(v, 'secret') ?? process.env.SIGNING_SECRET
      if (!secret) {
        console.error(`--secret (or SIGNING_SECRET) is required.\n\n${help}`)
        process.exit(2)
      }
      let headers: Record<string, string>
      if (area === 'A') headers = signAreaA({ apiKey: key, secret }, { method, target, body })
      else if (area === 'B') headers = signAreaB({ token: key, secret }, { method, target, body })
      else {
        console.error(`--area must be A or B.\n\n${help}`)
        process.exit(2)
      }
      if (body.length && area === 'A')
        headers['content-type'] = optional(v, 'content-type') ?? 'application/json'
      console.log(
        Object.entries(headers)
          .map(([name, value]) => `-H '${name}: ${value}'`)
          .join(' '),
      )
    },
  },
]
