import type * as z from 'zod'
import { type Mode, parseMode } from '#lib/platform/mode.ts'
import { VerifyTinRequest } from '#lib/taxpayer/schemas.ts'
import { TIN_FORMS } from '#lib/taxpayer/tin.ts'

/** Option helpers shared by the CLI command modules. */
export function required(values: Record<string, unknown>, name: string, help: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value === '') {
    console.error(`--${name} is required.\n\n${help}`)
    process.exit(2)
  }
  return value
}

/**
 * --tin, required and in one of the forms the API takes (lib/taxpayer/tin.ts): a business registered
 * under any other string could never be named as an invoice party nor found by verify-tin.
 */
export function requiredTin(values: Record<string, unknown>, help: string): string {
  const tin = required(values, 'tin', help)
  // The API's own schema (verify-tin's), so the CLI accepts exactly the forms the API does.
  return checkedBy(VerifyTinRequest.shape.tin, tin, `--tin must be a TIN of the form ${TIN_FORMS}`, help)
}

/**
 * An option's value checked with the schema the API checks the same field with (lib/), so the CLI
 * never stores what the API would refuse; a refusal says what was wanted and what was given, and
 * stops with the usage (exit 2).
 */
export function checkedBy<T>(schema: z.ZodType<T>, value: string, wanted: string, help: string): T {
  const result = schema.safeParse(value)
  if (!result.success) {
    console.error(`${wanted} (got ${value}).\n\n${help}`)
    process.exit(2)
  }
  return result.data
}

export const optional = (values: Record<string, unknown>, name: string): string | undefined =>
  typeof values[name] === 'string' && values[name] !== '' ? (values[name] as string) : undefined

/** --mode: live unless it says test (CONTRACT section 15); anything else stops with the usage. */
export function modeOption(values: Record<string, unknown>, help: string): Mode {
  if (values.mode === undefined) return 'live'
  const mode = parseMode(values.mode)
  if (!mode) {
    console.error(`--mode takes live or test (got ${String(values.mode)}).\n\n${help}`)
    process.exit(2)
  }
  return mode
}

/** Shown once after issuing a secret: it cannot be printed again. */
export const ONCE = 'Store the secret now: it is never shown again.'
