import * as z from 'zod'

/** The roles a self-service key may have (CONTRACT section 2): one per issued key. */
export const KEY_ROLES = ['SI', 'APP', 'ADMIN'] as const

/** The longest overlap of a roll: 7 days (CONTRACT section 15). */
export const MAX_OVERLAP_SECONDS = 7 * 24 * 60 * 60

/** POST /api/v1/keys. */
export const IssueKeyRequest = z.object({
  role: z.enum(KEY_ROLES, { error: `role must be one of ${KEY_ROLES.join(', ')}` }),
  mode: z
    .enum(['live', 'test'], { error: 'mode must be live or test' })
    .optional()
    .meta({ description: "live or test; absent: the calling key's own mode" }),
})
export type IssueKeyRequest = z.output<typeof IssueKeyRequest>

const overlapProblem = `overlap_seconds must be a whole number from 0 to ${MAX_OVERLAP_SECONDS} (7 days)`

/** POST /api/v1/keys/{key}/roll. */
export const RollKeyRequest = z.object({
  overlap_seconds: z
    .int({ error: overlapProblem })
    .min(0, overlapProblem)
    .max(MAX_OVERLAP_SECONDS, overlapProblem)
    .meta({
      description:
        'How long the secrets the key had stay valid beside the new one, in seconds (0: refused at once)',
    }),
})
export type RollKeyRequest = z.output<typeof RollKeyRequest>

/**
 * An API key as it appears in a path: issued keys are `ak_` or `ak_test_` and Base64url; the
 * development keys are letters and dashes. The bound keeps it under what a key lookup accepts.
 */
export const KeyPath = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'not an API key'),
})
