/**
 * What a command prints. Results go to stdout as JSON, notes for the person at the terminal to
 * stderr, so `$(...)` and pipes get only the result. `--get a,b` prints just those fields of the
 * result, space-separated on one line, for shell variables:
 *
 *   BUSINESS=$(npm run --silent cli -- business create --name X --tin 12345678-0002 --get business_id)
 */
let fields: string[] | undefined
let printed = false

/** Set once by scripts/cli.ts from the global --get option. */
export function selectFields(list: string | undefined): void {
  fields = list
    ?.split(',')
    .map((field) => field.trim())
    .filter(Boolean)
}

export function printResult(result: Record<string, unknown>): void {
  printed = true
  if (!fields) {
    console.log(JSON.stringify(result, null, 2))
    return
  }
  const missing = fields.filter((field) => !(field in result))
  if (missing.length) {
    console.error(
      `--get ${missing.join(',')}: this command's result has no such field (it has ${Object.keys(result).join(', ')})`,
    )
    process.exit(2)
  }
  console.log(fields.map((field) => String(result[field])).join(' '))
}

/** After the command: --get on a command that prints no JSON result is a mistake worth saying. */
export function checkFieldsPrinted(commandName: string): void {
  if (fields && !printed) {
    console.error(`--get: "${commandName}" prints no JSON result to take fields from`)
    process.exit(2)
  }
}

/** A note for the person (shown once, hints): stderr. */
export const note = (text: string): void => console.error(text)
