import * as z from 'zod'

/**
 * The operator's institution, named in camt.053 as the statement account's servicer
 * (`Acct/Svcr/FinInstnId`): optional in the XSD, but every bank's statement has it, and importers
 * key the account on it. iso20022.js, for one, reads no statement without it, and finds the servicer
 * only by an identifier in `Othr/Id` (it looks for camt.053.001.02's `BIC`, not .08's `BICFI`): so
 * the institution's id is required, its BIC optional.
 *
 * A stage setting (`statements.accountServicer` in infra/stages/<stage>.json), given to the
 * statement function as STATEMENT_ACCOUNT_SERVICER (JSON); `npm start` and the tests give the dev
 * stage's (scripts/local/stage-environment.ts).
 */
export const AccountServicer = z.strictObject({
  /** Nm, Max140Text: the institution's name. */
  name: z.string().trim().min(1).max(140),
  /** BICFI (ISO 9362, 8 or 11 characters), or null when the institution has none. */
  bic: z
    .string()
    .regex(/^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'a BIC of 8 or 11 upper-case letters and digits')
    .nullable(),
  /** Othr/Id, Max35Text: its code in the national scheme (its NIBSS institution code in Nigeria). */
  institutionId: z.string().regex(/^[A-Za-z0-9-]{1,35}$/, '1 to 35 letters, digits or dashes'),
})
export type AccountServicer = z.infer<typeof AccountServicer>

const ACCOUNT_SERVICER_ENV = 'STATEMENT_ACCOUNT_SERVICER'

/** The variable the statement function reads its servicer from, as the stacks and local runs set it. */
export const accountServicerEnvironment = (servicer: AccountServicer): Record<string, string> => ({
  [ACCOUNT_SERVICER_ENV]: JSON.stringify(servicer),
})

/**
 * The servicer the environment names, or undefined where none is set (the statement then names
 * none, still valid). A value that is not one is an error: the stacks set it from validated settings.
 */
export function accountServicer(env: NodeJS.ProcessEnv = process.env): AccountServicer | undefined {
  const raw = env.STATEMENT_ACCOUNT_SERVICER
  return raw ? AccountServicer.parse(JSON.parse(raw)) : undefined
}
