import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager'
import { newAuthorityKeyPem } from '#lib/qr/authority-key.ts'
import { newSigningKeyPem } from '#lib/platform/signing/key-source.ts'
import type { Command } from './command.ts'
import { optional } from './require.ts'

const help = `keys provision: generate the service's private keys into the deployment's Secrets Manager secrets.

The data stack creates the secrets empty (CloudFormation cannot make an Ed25519 or RSA key). Run this
once after the first deploy; a secret that already holds a key is left alone unless --force is given
(replacing the signing key changes the JWKS; replacing the QR key makes printed QR codes unreadable).
Locally nothing is needed: keys are generated on first use under KEYS_DIR (default .local/keys).

Options:
  --stage STAGE          the deployment stage; the secrets are einvoicing/<stage>/signing-key and
                         einvoicing/<stage>/qr-authority-key
  --signing-secret ID    or name/ARN the signing key secret explicitly
  --qr-secret ID         and the QR authority key secret
  --force                replace keys that already exist

Example: npm run cli -- keys provision --stage prod --region eu-west-1`

async function hasValue(client: SecretsManagerClient, secretId: string): Promise<boolean> {
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }))
    return Boolean(out.SecretString || out.SecretBinary)
  } catch (error) {
    // A secret created without a value has no AWSCURRENT version yet.
    if ((error as Error).name === 'ResourceNotFoundException' && /value/i.test((error as Error).message))
      return false
    throw error
  }
}

export const commands: Command[] = [
  {
    name: 'keys provision',
    usesTable: false,
    summary: "generate the service's signing and QR keys into Secrets Manager (once per deployment)",
    help,
    options: {
      stage: { type: 'string' },
      'signing-secret': { type: 'string' },
      'qr-secret': { type: 'string' },
      force: { type: 'boolean' },
    },
    async run(v) {
      const stage = optional(v, 'stage')
      const signing = optional(v, 'signing-secret') ?? (stage && `einvoicing/${stage}/signing-key`)
      const qr = optional(v, 'qr-secret') ?? (stage && `einvoicing/${stage}/qr-authority-key`)
      if (!signing || !qr) {
        console.error(`Give --stage, or both --signing-secret and --qr-secret.\n\n${help}`)
        process.exit(2)
      }
      const client = new SecretsManagerClient({})
      for (const [secretId, make] of [
        [signing, newSigningKeyPem],
        [qr, newAuthorityKeyPem],
      ] as const) {
        if (!v.force && (await hasValue(client, secretId))) {
          console.log(`${secretId}: already holds a key, left as it is (use --force to replace it)`)
          continue
        }
        await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: await make() }))
        console.log(`${secretId}: new key stored`)
      }
    },
  },
]
