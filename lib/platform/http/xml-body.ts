/**
 * An XML request body, as the handler of a route that takes one (the request declaration's
 * `xmlBody`, lib/platform/http/endpoint.ts) receives it: the text as sent, decoded as UTF-8, for the
 * domain to read (the invoice's UBL in, lib/invoice/input.ts). The factory never parses it.
 */
export class XmlBody {
  constructor(readonly text: string) {}
}

/** application/xml or text/xml, or a +xml type, with or without parameters. */
export const XML_CONTENT_TYPE = /^(application|text)\/([a-z0-9.+-]+\+)?xml(;|$)/i
