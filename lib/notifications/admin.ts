import type { Caller } from '#lib/auth/caller.ts'

/** The admin key id recorded as createdBy/updatedBy (the factory has already authenticated it). */
export function adminOf(caller: Caller): string {
  if (caller.scheme !== 'admin-bearer')
    throw new Error(`Area D handler reached with a ${caller.scheme} caller`)
  return caller.adminKeyId
}
