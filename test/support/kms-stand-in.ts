import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A counted stand-in for AWS KMS (which has no local form): the two operations the Encryption SDK's
 * KMS keyring calls, GenerateDataKey and Decrypt, over KMS's JSON protocol on a local port. Point the
 * SDK at it with AWS_ENDPOINT_URL_KMS. Data keys are wrapped with AES-256-GCM under a key of its own,
 * with the request's encryption context as additional data, so a Decrypt under another context fails
 * as it would in KMS. `calls` counts what reached it, by operation.
 */
export interface KmsStandIn {
  endpoint: string
  keyArn: string
  calls: Record<string, number>
  /** The encryption context of every call, in order (what a key policy's conditions would see). */
  contexts: Record<string, string>[]
  close(): Promise<void>
}

const contextBytes = (context: Record<string, string> | undefined) =>
  Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))))

export async function startKmsStandIn(): Promise<KmsStandIn> {
  const master = randomBytes(32)
  const keyArn = 'arn:aws:kms:eu-west-1:111122223333:key/00000000-0000-4000-8000-000000000015'
  const calls: Record<string, number> = {}
  const contexts: Record<string, string>[] = []

  const wrap = (plaintext: Buffer, context: Record<string, string> | undefined) => {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(contextBytes(context))
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body])
  }
  const unwrap = (blob: Buffer, context: Record<string, string> | undefined) => {
    const decipher = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12))
      .setAAD(contextBytes(context))
      .setAuthTag(blob.subarray(12, 28))
    return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()])
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '')
      calls[operation] = (calls[operation] ?? 0) + 1
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
      contexts.push(input.EncryptionContext ?? {})
      const reply = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' })
        res.end(JSON.stringify(body))
      }
      try {
        if (operation === 'GenerateDataKey') {
          const plaintext = randomBytes(input.NumberOfBytes ?? 32)
          return reply(200, {
            KeyId: keyArn,
            Plaintext: plaintext.toString('base64'),
            CiphertextBlob: wrap(plaintext, input.EncryptionContext).toString('base64'),
          })
        }
        if (operation === 'Decrypt') {
          const plaintext = unwrap(Buffer.from(input.CiphertextBlob, 'base64'), input.EncryptionContext)
          return reply(200, {
            KeyId: keyArn,
            Plaintext: plaintext.toString('base64'),
            EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
          })
        }
        return reply(400, { __type: 'UnsupportedOperationException', message: operation })
      } catch {
        return reply(400, { __type: 'InvalidCiphertextException', message: 'does not open' })
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    keyArn,
    calls,
    contexts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
