import { randomBytes } from 'node:crypto'
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager'

/**
 * Where the service's private keys (the invoice signing key, the QR authority key) are kept, as PEM
 * text: a Secrets Manager secret in AWS, a file under KEYS_DIR locally. Each key module decides what
 * kind of key it wants; this module only stores and fetches the PEM.
 */

const projectRoot = () => fileURLToPath(new URL('../../../', import.meta.url))

/** Local key files: env KEYS_DIR, default `<project>/.local/keys` (gitignored). */
export const keysDir = (env: Record<string, string | undefined> = process.env) =>
  env.KEYS_DIR || join(projectRoot(), '.local', 'keys')

const errorCode = (error: unknown) => (error as { code?: string }).code

/**
 * The PEM in `dir/fileName`, generated on first use. Several processes (parallel test files, a local
 * server) may find it missing at once, so it is created atomically: written to a private temp file,
 * then hard-linked to its final name, which fails for every process but the first; the others read
 * the winner's key.
 */
export async function readOrCreatePemFile(
  dir: string,
  fileName: string,
  generate: () => string | Promise<string>,
): Promise<{ pem: string; file: string }> {
  const file = join(dir, fileName)
  try {
    return { pem: await readFile(file, 'utf8'), file }
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error
  }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temp, await generate(), { mode: 0o600, flag: 'wx' })
  try {
    await link(temp, file)
  } catch (error) {
    // Another process linked its key first: theirs is the key, ours is discarded.
    if (errorCode(error) !== 'EEXIST') throw error
  } finally {
    await unlink(temp).catch(() => undefined)
  }
  return { pem: await readFile(file, 'utf8'), file }
}

/** A secret's text as a PEM private key: the PEM itself, or JSON `{"privateKey": "<PEM>"}`. */
export function pemFromSecretText(text: string, secretArn: string, expected: string): string {
  let pem = text
  if (text.trimStart().startsWith('{')) {
    try {
      pem = String((JSON.parse(text) as { privateKey?: unknown }).privateKey ?? '')
    } catch {
      pem = ''
    }
  }
  if (!pem.includes('PRIVATE KEY')) {
    throw new Error(`The secret ${secretArn} holds no PEM private key: put ${expected} in it`)
  }
  return pem
}

/** The PEM a Secrets Manager secret holds. */
export async function readPemSecret(
  client: SecretsManagerClient,
  secretArn: string,
  expected: string,
): Promise<string> {
  const out = await client.send(new GetSecretValueCommand({ SecretId: secretArn }))
  const text = out.SecretString ?? (out.SecretBinary ? Buffer.from(out.SecretBinary).toString('utf8') : '')
  return pemFromSecretText(text, secretArn, expected)
}
