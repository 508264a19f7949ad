import * as z from 'zod'

/**
 * The validate routes' query (CONTRACT 25): `en16931=true` asks for the EN 16931 findings on an
 * invoice sent as JSON. A Nigerian invoice is judged by the authority's rules; the European norm's
 * are a check its sender opts into. A UBL invoice is a European document, always judged by them.
 */
export const ValidateQuery = z.object({
  // Empty (`?en16931=`) is absent, as a client that always sends the key with no value means.
  en16931: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(['true', 'false'], { error: 'en16931 must be true or false' }).optional(),
    )
    .meta({
      description:
        '`true`: the reply lists the EN 16931 findings on a JSON invoice too (`en16931`). A UBL invoice gets them whatever this says; a JSON invoice without it gets none.',
    }),
})
