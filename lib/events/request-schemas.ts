import * as z from 'zod'
import { EVENT_TYPES } from './types.ts'

/** What GET /api/v1/events and GET /api/v1/events/{id} take (CONTRACT 21). */

export const EventPath = z.object({
  id: z.string().regex(/^evt_[0-9a-z]{9}[0-9a-f]{20}$/, 'not an event id'),
})

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)

/** An instant with its offset, as UTC (`Z`, milliseconds): the form events' times are stored in. */
export const Instant = (name: string) =>
  z
    .string({ error: `${name} must be a date-time with its offset, e.g. 2026-11-20T18:00:00Z` })
    .max(40, `${name} must be a date-time with its offset, e.g. 2026-11-20T18:00:00Z`)
    .pipe(
      z.iso.datetime({
        offset: true,
        error: `${name} must be a date-time with its offset, e.g. 2026-11-20T18:00:00Z`,
      }),
    )
    .transform((text) => new Date(text).toISOString())

const SIZE = 'size must be a whole number from 1 to 200'

/**
 * Filters and a page: `type` (one event type), `since` and `until` (inclusive), `size` (default 50, at
 * most 200), and `cursor`, the previous reply's `page.next_cursor`.
 */
export const EventsQuery = z.object({
  type: z.preprocess(
    blankIsAbsent,
    z.enum(EVENT_TYPES, { error: `type must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
  ),
  since: z.preprocess(blankIsAbsent, Instant('since').optional()),
  until: z.preprocess(blankIsAbsent, Instant('until').optional()),
  size: z.preprocess(
    blankIsAbsent,
    z.coerce.number({ error: SIZE }).int(SIZE).min(1, SIZE).max(200, SIZE).default(50),
  ),
  cursor: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .max(200, 'cursor is not one this API gave: use page.next_cursor of the previous reply')
      .optional(),
  ),
})
