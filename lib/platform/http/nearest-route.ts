import type { Route } from './route.ts'
import { editDistance } from '#lib/platform/text/edit-distance.ts'

/**
 * The served route nearest to a request no route takes, so a 404 can point at the path that exists
 * (the authority's `/api/v1/invoice/sign` is this service's `/api/v1/app/invoice/sign`). Paths are
 * compared segment by segment: a `{param}` takes any segment at a quarter (so a literal match wins),
 * another segment costs its share of letters changed, a segment added or left out costs 1, and
 * another method costs three quarters of a segment (the request's own method wins a near tie, but
 * a path spelled much nearer under another method is named).
 * The request path is read only up to fixed bounds, so a hostile path costs no more than a short one.
 */

/** The most of a request path a reply quotes back, and the most of it compared. */
const QUOTED_PATH_MAX = 100
const MAX_SEGMENTS = 12
const MAX_SEGMENT_LENGTH = 32
const PARAM_COST = 0.25
// Less than a segment's worth: a path one letter off under another method (a GET of the authority's
// `POST .../verify-tin`, misspelled) is nearer than a path with a whole segment changed under the
// request's own method.
const OTHER_METHOD_COST = 0.75

/** The request path as a reply may quote it: cut short, so the reply never grows with the request. */
export const quotedPath = (path: string): string =>
  path.length > QUOTED_PATH_MAX ? `${path.slice(0, QUOTED_PATH_MAX)}...` : path

const segmentsOf = (path: string): string[] =>
  path
    .slice(0, MAX_SEGMENTS * (MAX_SEGMENT_LENGTH + 1))
    .split('/')
    .filter(Boolean)
    .slice(0, MAX_SEGMENTS)
    .map((s) => s.slice(0, MAX_SEGMENT_LENGTH).toLowerCase())

const segmentCost = (served: string, sent: string): number =>
  served.startsWith('{') ? PARAM_COST : editDistance(served, sent) / Math.max(served.length, sent.length, 1)

/** Edit distance over segments, each substitution weighed by how different the two segments are. */
function pathDistance(served: readonly string[], sent: readonly string[]): number {
  let previous = Array.from({ length: sent.length + 1 }, (_, i) => i)
  for (let i = 1; i <= served.length; i++) {
    const current = [i]
    for (let j = 1; j <= sent.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + segmentCost(served[i - 1]!, sent[j - 1]!),
      )
    }
    previous = current
  }
  return previous[sent.length]!
}

/** One route, the nearest (the first in the table on a tie), or undefined for an empty table. */
export function nearestRoute<R extends Pick<Route, 'method' | 'path'>>(
  routes: readonly R[],
  method: string,
  path: string,
): R | undefined {
  const sent = segmentsOf(path)
  let best: R | undefined
  let bestCost = Number.POSITIVE_INFINITY
  for (const route of routes) {
    const cost =
      pathDistance(segmentsOf(route.path), sent) + (route.method === method ? 0 : OTHER_METHOD_COST)
    if (cost < bestCost) {
      best = route
      bestCost = cost
    }
  }
  return best
}
