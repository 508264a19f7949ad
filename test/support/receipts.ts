import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import type { ApiClient } from '#client/api-client.ts'
import { receiptBytes, receiptHash, signReceiptBytes } from '#client/receipts/crypto.ts'
import { buildInvoice, newIrn } from '../fixtures/invoices/build.ts'

/** Tills for the receipt tests (CONTRACT 23): node:crypto keys, receipts signed with the client's functions. */

export type KeyKind = 'Ed25519' | 'P-256'

export function deviceKeyPair(kind: KeyKind = 'Ed25519') {
  const { privateKey, publicKey } =
    kind === 'Ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return { privateKey, publicJwk: publicKey.export({ format: 'jwk' }) as Record<string, unknown> }
}

/** A B2C invoice of the dev supplier with no buyer (a receipt's buyer is optional). */
export function b2cInvoice(irn = newIrn()): Record<string, any> {
  const { accounting_customer_party: _buyer, ...invoice } = buildInvoice({ irn, minimal: true })
  return { ...invoice, invoice_kind: 'B2C' }
}

export type Receipt = Record<string, any>

/** A device as a till holds it: its key, its id and where its chain stands. */
export class Till {
  counter = 0
  prevHash: string
  constructor(
    readonly deviceId: string,
    genesisHash: string,
    readonly privateKey: KeyObject,
  ) {
    this.prevHash = genesisHash
  }

  /** Signs a receipt with the given members (the invoice's, `device`'s, `corrects`) as they are. */
  sign(receipt: Receipt): Receipt {
    return { ...receipt, signature: signReceiptBytes(receiptBytes(receipt), this.privateKey) }
  }

  /** The next receipt of the chain (counter and prev_hash moved on), or one built with `device` overrides. */
  next(
    options: {
      invoice?: Record<string, unknown>
      issuedAt?: string
      device?: Partial<{ counter: number; prev_hash: string; issued_at: string }>
      corrects?: string
      advance?: boolean
    } = {},
  ): Receipt {
    const device = {
      device_id: this.deviceId,
      counter: this.counter + 1,
      prev_hash: this.prevHash,
      issued_at: options.issuedAt ?? new Date().toISOString(),
      ...options.device,
    }
    const receipt = this.sign({
      ...(options.invoice ?? b2cInvoice()),
      device,
      ...(options.corrects ? { corrects: options.corrects } : {}),
    })
    if (options.advance !== false) {
      this.counter = device.counter
      this.prevHash = receiptHash(receipt)
    }
    return receipt
  }
}

export const hashOf = (receipt: Receipt) => receiptHash(receipt)

/** Registers a device through the API with a fresh key pair; the till that signs for it. */
export async function registerTill(admin: ApiClient, kind: KeyKind = 'Ed25519', name = 'Till') {
  const { privateKey, publicJwk } = deviceKeyPair(kind)
  const reply = await admin.post<any>('/api/v1/devices', { name, public_key: publicJwk })
  if (reply.status !== 201)
    throw new Error(`device not registered: ${reply.status} ${JSON.stringify(reply.body)}`)
  const device = reply.body.data
  return { till: new Till(device.device_id, device.genesis_hash, privateKey), device, publicJwk }
}
