import { voidSearchGaps } from '#lib/invoice/search-gaps.ts'
import { inMode } from '#lib/platform/mode.ts'
import type { Command } from './command.ts'
import { countdown } from './progress.ts'
import { modeOption, required } from './require.ts'

/** A sign function lives at most its timeout (10 s, infra/constructs/api-function.ts): wait longer. */
const DEFAULT_SETTLE_SECONDS = 15

const voidGapsHelp = `invoices void-gaps: voids the supplier search numbers of one business that no invoice holds, left
by a sign whose function died between taking its numbers and writing the invoice (docs/capacity.md,
"Numbers that are not used"). Until then such a number counts in the search's total and its page
shows one row fewer. Reads the counters, waits --settle-seconds so no sign can still be writing a
number it judges, then reads each of the business's lists whole and voids each gap once.

Options:
  --business BUSINESS_ID   (required)
  --mode live|test         the business's live invoices (default) or its test-mode ones
  --settle-seconds N       how long to wait before judging (default ${DEFAULT_SETTLE_SECONDS}: longer than a sign lives)
  --dry-run                list the gaps, void nothing

Example: npm run cli -- invoices void-gaps --business 11111111-1111-4111-8111-111111111111 --dry-run`

export const commands: Command[] = [
  {
    name: 'invoices void-gaps',
    summary: "void a business's supplier search numbers no invoice holds (after a crashed sign)",
    help: voidGapsHelp,
    options: {
      business: { type: 'string' },
      mode: { type: 'string' },
      'settle-seconds': { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    async run(v) {
      const businessId = required(v, 'business', voidGapsHelp)
      const mode = modeOption(v, voidGapsHelp)
      const settleSeconds = Number(v['settle-seconds'] ?? DEFAULT_SETTLE_SECONDS)
      if (!Number.isFinite(settleSeconds) || settleSeconds < 0)
        throw new Error('--settle-seconds must be a number of seconds, 0 or more')
      const dryRun = v['dry-run'] === true
      // Said before the wait, which is otherwise silent (15 s by default), and counted down.
      console.error(
        `void-gaps: waiting ${settleSeconds} s so that no sign can still be writing a number, then reading the lists`,
      )
      const found = await inMode(mode, () =>
        voidSearchGaps(businessId, {
          settleMs: settleSeconds * 1000,
          dryRun,
          wait: (ms) => countdown('void-gaps: waiting', ms),
          onSpace: (space) => console.error(`void-gaps: reading the ${space} list`),
        }),
      )
      // The summary first, then each list's gaps.
      console.log(
        found.length
          ? `${found.reduce((sum, s) => sum + s.gaps.length, 0)} gap(s) ${dryRun ? 'found' : 'voided'} in ${mode} mode`
          : `No gaps in ${mode} mode: every number of business ${businessId} holds an invoice`,
      )
      for (const { space, counter, gaps } of found)
        console.log(
          `${space}: ${gaps.length} of ${counter} numbers ${dryRun ? 'are gaps' : 'voided'}: ${gaps.join(', ')}`,
        )
    },
  },
]
