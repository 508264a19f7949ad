import { accountServicerEnvironment } from '#lib/finance/account-servicer.ts'
import { loadStageSettings } from '../../infra/settings.ts'

/**
 * The variables the stacks set from a stage's settings, set here from the dev stage's file
 * (infra/stages/dev.json) for `npm start` and the tests: a statement served locally names the same
 * servicer as one the dev stage serves. A value already in the environment wins.
 */
export function useDevStageEnvironment(): void {
  const settings = loadStageSettings('dev')
  for (const [name, value] of Object.entries(accountServicerEnvironment(settings.statements.accountServicer)))
    process.env[name] ??= value
}
