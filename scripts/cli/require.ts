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

/** Shown once after issuing a secret: it cannot be printed again. */
export const ONCE = 'Store the secret now: it is never shown again.'
