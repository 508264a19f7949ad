import type { Role } from '#lib/routes.ts'

/** Who is calling, as established by the route's auth scheme. */
export type Caller =
  | { scheme: 'none' }
  /** The health check without credentials. */
  | { scheme: 'anonymous' }
  | {
      scheme: 'api-signature'
      apiKeyId: string
      businessId: string
      roles: Role[]
      webhookUrl?: string
      /** The client's default invoice validation mode, when it has one. */
      validationMode?: 'strict' | 'lenient'
    }
  | { scheme: 'switch-signature'; switchClientId: string }
  | { scheme: 'merchant-bearer'; merchantId: string }
  | { scheme: 'admin-bearer'; adminKeyId: string }
