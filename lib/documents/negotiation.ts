/**
 * Whether the caller asked for XML: the media range with the highest q-value (the first listed among
 * equals) is application/xml or text/xml. Anything else, `*\/*` or no Accept header keeps JSON, so
 * existing clients see no change.
 */
export function prefersXml(accept: string | undefined): boolean {
  if (!accept) return false
  let best: { type: string; q: number } | undefined
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    const qParam = params.find((p) => p.startsWith('q='))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!type || !Number.isFinite(q) || q <= 0) continue
    if (!best || q > best.q) best = { type, q }
  }
  return best?.type === 'application/xml' || best?.type === 'text/xml'
}
