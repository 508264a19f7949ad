import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager'
import { pemFromSecretText } from '#lib/platform/keys/pem-store.ts'
import { inMode, type Mode, MODES } from '#lib/platform/mode.ts'
import { newAuthorityKeyPem } from '#lib/qr/authority-key.ts'
import { newSigningKeyPem, signingKeyFromPem } from '#lib/platform/signing/key-source.ts'
import { publishKey } from '#lib/platform/signing/published-keys.ts'
import type { Command } from './command.ts'
import { optional } from './require.ts'

const help = `keys provision: generate the service's private keys into the deployment's Secrets Manager secrets,
and publish the signing keys' public halves in the JWKS.

The data stack creates the secrets empty (CloudFormation cannot make an Ed25519 or RSA key). Run this
once after the first deploy; a secret that already holds a key is left alone unless --force is given
(replacing the signing key changes the JWKS; replacing the QR key makes printed QR codes unreadable).
Each key exists twice: live, and test for sandbox (test-mode) artefacts, which no live key verifies.
The current signing key of each mode is then written to the table's JWKS, so
GET /api/v1/resource/public-keys (and ?mode=test) lists it before anything is signed; running the
command again publishes again and changes nothing else.
Locally nothing is needed: keys are generated under KEYS_DIR (default .local/keys) and published by
the seed of npm start.

Options:
  --stage STAGE          the deployment stage; the secrets are einvoicing/<stage>/signing-key,
                         einvoicing/<stage>/qr-authority-key and their test-signing-key and
                         test-qr-authority-key siblings; the table is the stage's
  --signing-secret ID    or name/ARN the live signing key secret explicitly
  --qr-secret ID         and the live QR authority key secret
  --test-signing-secret ID, --test-qr-secret ID   and the test ones
  --force                replace keys that already exist

Example: npm run cli -- keys provision --stage prod --region eu-west-1`

/** The secret's key text, or undefined while it has none. */
async function storedKey(client: SecretsManagerClient, secretId: string): Promise<string | undefined> {
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }))
    return out.SecretString ?? (out.SecretBinary ? Buffer.from(out.SecretBinary).toString('utf8') : undefined)
  } catch (error) {
    // A secret created without a value has no AWSCURRENT version yet.
    if ((error as Error).name === 'ResourceNotFoundException' && /value/i.test((error as Error).message))
      return undefined
    throw error
  }
}

/** The secret's key, made and stored when it has none (or --force). */
async function provision(
  client: SecretsManagerClient,
  secretId: string,
  make: () => string | Promise<string>,
  force: boolean,
): Promise<string> {
  const existing = force ? undefined : await storedKey(client, secretId)
  if (existing) {
    console.log(`${secretId}: already holds a key, left as it is (use --force to replace it)`)
    return existing
  }
  const pem = await make()
  await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: pem }))
  console.log(`${secretId}: new key stored`)
  return pem
}

export const commands: Command[] = [
  {
    name: 'keys provision',
    usesTable: false,
    summary:
      "generate the service's signing and QR keys (live and test) into Secrets Manager and publish the JWKS",
    help,
    options: {
      stage: { type: 'string' },
      'signing-secret': { type: 'string' },
      'qr-secret': { type: 'string' },
      'test-signing-secret': { type: 'string' },
      'test-qr-secret': { type: 'string' },
      force: { type: 'boolean' },
    },
    async run(v) {
      const stage = optional(v, 'stage')
      const named = (option: string, secret: string) =>
        optional(v, option) ?? (stage && `einvoicing/${stage}/${secret}`)
      const secrets: Record<Mode, { signing?: string; qr?: string }> = {
        live: { signing: named('signing-secret', 'signing-key'), qr: named('qr-secret', 'qr-authority-key') },
        test: {
          signing: named('test-signing-secret', 'test-signing-key'),
          qr: named('test-qr-secret', 'test-qr-authority-key'),
        },
      }
      if (MODES.some((mode) => !secrets[mode].signing || !secrets[mode].qr)) {
        console.error(`Give --stage, or all four secrets explicitly.\n\n${help}`)
        process.exit(2)
      }
      const client = new SecretsManagerClient({})
      const signingPems: Partial<Record<Mode, string>> = {}
      for (const mode of MODES) {
        const { signing, qr } = secrets[mode] as { signing: string; qr: string }
        signingPems[mode] = await provision(client, signing, newSigningKeyPem, Boolean(v.force))
        await provision(client, qr, newAuthorityKeyPem, Boolean(v.force))
      }
      if (stage) await (await import('./stage.ts')).useStage(stage)
      if (!process.env.TABLE_NAME) {
        console.log('No table (give --stage): the JWKS lists each key from its first signature only')
        return
      }
      for (const mode of MODES) {
        const key = signingKeyFromPem(
          pemFromSecretText(signingPems[mode]!, mode, 'a PKCS#8 Ed25519 key'),
          'secrets-manager',
          mode,
        )
        await inMode(mode, () => publishKey(key.jwk))
        console.log(`${mode} signing key ${key.jwk.kid}: published in the ${mode} JWKS`)
      }
    },
  },
]
