import * as z from 'zod'
import { lazy } from './endpoint.ts'

/**
 * CONTRACT 22: an invoice's EN 16931 business-rule findings, in the validate endpoints' replies, the
 * successful ones and the 400s (./records.ts FirsErrorDetails). Lazy and on its own, as ./truncated.ts,
 * so the invoice endpoints declare it without bundling the records.
 */
export const En16931Findings = /* @__PURE__ */ lazy(() =>
  z
    .array(
      z
        .object({
          rule: z
            .string()
            .meta({ description: "The rule's official identifier, e.g. `BR-CO-15`", example: 'BR-CO-15' }),
          flag: z
            .enum(['fatal', 'warning'])
            .meta({ description: "The rule's flag in the official artefact" }),
          path: z.string().meta({
            description: 'The UBL XPath of the element at fault, as the service exports the invoice',
            example: '/Invoice',
          }),
          message: z.string().meta({ description: "The rule's official text" }),
        })
        .meta({ id: 'En16931Finding' }),
    )
    .max(100)
    .meta({
      description:
        'The validate endpoints (si/validate, app/invoice/validate, /api/v1/invoice/validate): the EN 16931 business rules the invoice does not meet, by their official identifiers, at most 100: for a UBL invoice always, for a JSON invoice only when asked (`?en16931=true`). Informational: they never change the reply\'s status; the NG-* rules decide (docs/invoices.md: "EN 16931 findings").',
    }),
)
