/**
 * Renders a notification template with a transaction's fields. Placeholders are `{{name}}` (spaces
 * inside the braces allowed). A placeholder with no value is left in the text exactly as written, so
 * a typo shows in the message, and it is listed so the outbox item says what could not be filled.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g

export const KNOWN_PLACEHOLDERS = [
  'amount',
  'currency',
  'merchantId',
  'merchantReference',
  'providerReference',
  'status',
  'completedAt',
  'productCode',
  'responseCode',
] as const
export type PlaceholderName = (typeof KNOWN_PLACEHOLDERS)[number]

export interface Rendered {
  text: string
  /** Names used in the template that have no value, once each, in order of appearance. */
  unknownPlaceholders: string[]
}

export function render(template: string, values: Partial<Record<PlaceholderName, string>>): Rendered {
  const unknown = new Set<string>()
  const text = template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name as PlaceholderName] : undefined
    if (value === undefined) {
      unknown.add(name)
      return whole
    }
    return value
  })
  return { text, unknownPlaceholders: [...unknown] }
}
