/**
 * The media range a caller's Accept header prefers: the one with the highest q-value, the first
 * listed among equals (RFC 9110 section 12.5.1), lower-cased; undefined without an Accept header or
 * when every range is refused (q=0). Replies that can take another form than JSON (CSV, XML) ask this,
 * so `*\/*` or no header keeps JSON for existing clients.
 */
export function preferredMediaRange(accept: string | undefined): string | undefined {
  if (!accept) return undefined
  let best: { type: string; q: number } | undefined
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    const qParam = params.find((p) => p.startsWith('q='))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!type || !Number.isFinite(q) || q <= 0) continue
    if (!best || q > best.q) best = { type, q }
  }
  return best?.type
}
