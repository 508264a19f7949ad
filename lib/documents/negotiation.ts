import { preferredMediaRange } from '#lib/platform/http/accept.ts'

/** Whether the caller asked for XML: its preferred media range is application/xml or text/xml. */
export const prefersXml = (accept: string | undefined): boolean =>
  ['application/xml', 'text/xml'].includes(preferredMediaRange(accept) ?? '')
