/**
 * `--secret -Xy...` as `--secret=-Xy...`. A generated secret or token is base64url, so one in 64
 * starts with "-", and parseArgs refuses a value that looks like an option ("argument is
 * ambiguous"). An option declared as a string always takes the next argument, so joining is exact.
 */
export function joinStringValues(args: string[], options: Record<string, { type: string }>) {
  const takesValue = new Set(
    Object.entries(options)
      .filter(([, option]) => option.type === 'string')
      .map(([name]) => `--${name}`),
  )
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const value = args[i + 1]
    if (takesValue.has(arg) && value?.startsWith('-')) {
      joined.push(`${arg}=${value}`)
      i++
    } else joined.push(arg)
  }
  return joined
}
