import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { XmlDocument, XmlValidateError, XsdValidator } from 'libxml2-wasm'
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs'

/**
 * The OASIS UBL 2.1 schemas (data/standards/ubl-2.1; its README says where they come from and
 * under which licence) as libxml2 XSD validators: a real schema validator, no Java. Missing schemas
 * fail the test that asks for them, with the path and what to do: never a skip, since a skipped
 * schema test would pass CI having checked nothing.
 */
export const UBL_SCHEMA_DIR = resolve(import.meta.dirname, '../../data/standards/ubl-2.1')

const SCHEMAS = {
  Invoice: 'maindoc/UBL-Invoice-2.1.xsd',
  CreditNote: 'maindoc/UBL-CreditNote-2.1.xsd',
} as const
export type UblRoot = keyof typeof SCHEMAS

let validators: Record<UblRoot, XsdValidator> | undefined

/** Fails, naming the path and what to do, when a schema is not in `dir`. */
export function requireUblSchemas(dir: string = UBL_SCHEMA_DIR): void {
  for (const file of Object.values(SCHEMAS)) {
    const path = join(dir, file)
    if (!existsSync(path)) {
      throw new Error(
        `The OASIS UBL 2.1 schema ${path} is missing: the UBL tests validate against data/standards/ubl-2.1 ` +
          '(maindoc/ and common/ of os-UBL-2.1, committed in the repository: restore them from git).',
      )
    }
  }
}

function load(): Record<UblRoot, XsdValidator> {
  if (validators) return validators
  requireUblSchemas()
  // Resolves the schemas' relative imports (../common/...) from the file system, by each schema's url.
  xmlRegisterFsInputProviders()
  const validatorOf = (file: string) => {
    const path = join(UBL_SCHEMA_DIR, file)
    const schema = XmlDocument.fromBuffer(readFileSync(path), { url: path })
    try {
      return XsdValidator.fromDoc(schema)
    } finally {
      schema.dispose()
    }
  }
  validators = { Invoice: validatorOf(SCHEMAS.Invoice), CreditNote: validatorOf(SCHEMAS.CreditNote) }
  return validators
}

/**
 * The schema errors of a UBL document (its root picks the schema), one line each; [] when valid.
 * A root that is neither Invoice nor CreditNote is an error too.
 */
export function ublSchemaErrors(xml: string): string[] {
  const schemas = load()
  const doc = XmlDocument.fromString(xml)
  try {
    const root = doc.root.name as UblRoot
    const validator = schemas[root]
    if (!validator) return [`The root element is ${root}, neither Invoice nor CreditNote`]
    try {
      validator.validate(doc)
      return []
    } catch (error) {
      if (error instanceof XmlValidateError)
        return error.details.map((d) => `line ${d.line}: ${d.message.trim()}`)
      throw error
    }
  } finally {
    doc.dispose()
  }
}
