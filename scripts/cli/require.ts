import { type Mode, parseMode } from '#lib/platform/mode.ts'

/** Option helpers shared by the CLI command modules. */
export function required(values: Record<string, unknown>, name: string, help: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value === '') {
    console.error(`--${name} is required.\n\n${help}`)
    process.exit(2)
  }
  return value
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
