import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import { BadRequest } from '#lib/platform/errors.ts'
import { toApiError } from '#lib/platform/http/errors.ts'
import { MAX_BODY_BYTES } from '#lib/platform/http/factory.ts'
import { errorResponse, replyShapeOf } from '#lib/platform/http/replies.ts'
import { pathMatches } from '#lib/platform/http/unrouted.ts'
import { type Route, routes, UNROUTED } from '#lib/service/routes.ts'
import { asFunction, type Grants, installLocalIam } from './iam.ts'

/**
 * The local stand-in for API Gateway: turns each HTTP request into an HTTP API (payload 2.0) event and
 * invokes the handler module the route table names, the same module Lambda runs.
 */
type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>

const projectRoot = new URL('../../', import.meta.url)
const modules = new Map<string, Promise<LambdaHandler>>()

/**
 * Set by startServer's `bundles` option: the Lambda bundle file of each function
 * (scripts/local/bundles.ts), to run instead of the TypeScript handler modules.
 */
let bundles: Record<string, string> | undefined

function loadHandler(modulePath: string, functionId: string): Promise<LambdaHandler> {
  const bundle = bundles?.[functionId]
  if (bundles && !bundle) throw new Error(`no bundle for ${functionId}`)
  const url = bundle ? pathToFileURL(bundle).href : new URL(modulePath, projectRoot).href
  let loaded = modules.get(url)
  if (!loaded) {
    loaded = import(url).then((m: { handler: LambdaHandler }) => m.handler)
    modules.set(url, loaded)
  }
  return loaded
}

/** A path segment that is not valid percent-encoded UTF-8 (`%E0%A4%A`, `%`, `%C0%AF`). */
class MalformedPath extends Error {}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new MalformedPath(segment)
  }
}

/** How many of a route's segments are literal: API Gateway picks the most specific route that matches. */
const literalSegments = (route: Route) => route.path.split('/').filter((seg) => !seg.startsWith('{')).length

// Most specific first, as API Gateway chooses (`/invoice/transmit/pull` before `/invoice/{business_id}`).
const bySpecificity = [...routes].sort((a, b) => literalSegments(b) - literalSegments(a))

function match(method: string, path: string): { route?: Route; params: Record<string, string> } {
  for (const route of bySpecificity) {
    if (route.method === method && pathMatches(route.path, path)) {
      const params: Record<string, string> = {}
      const names = route.path.split('/')
      const values = path.split('/')
      names.forEach((seg, i) => {
        if (seg.startsWith('{')) params[seg.slice(1, -1)] = decodeSegment(values[i]!)
      })
      return { route, params }
    }
  }
  return { params: {} }
}

/**
 * What API Gateway answers itself, the local server answers in the area's own record: a path whose
 * percent-encoding does not decode is the client's mistake, a 400 (CONTRACT section 9).
 */
function malformedPathReply(route: Route, segment: string): APIGatewayProxyStructuredResultV2 {
  const error = new BadRequest(
    `The path segment "${segment.slice(0, 60)}" is not valid percent-encoded UTF-8: encode each byte as %XX`,
    { problems: [{ path: 'path', code: 'malformed_path', message: 'not valid percent-encoded UTF-8' }] },
  )
  return errorResponse(replyShapeOf(route), toApiError(error)!, {
    requestId: randomUUID(),
    traceId: randomUUID(),
    startedAt: performance.now(),
  })
}

/** Reads at most one byte past the limit, so an oversized body is still refused by the handler. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    if (size <= MAX_BODY_BYTES) {
      chunks.push(buffer)
      size += buffer.length
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1)
}

/** API Gateway passes JSON and text bodies as strings and everything else base64-encoded. */
const isText = (contentType: string | undefined) =>
  !contentType || /^(text\/|application\/(json|xml|x-www-form-urlencoded|[\w.+-]+\+json))/i.test(contentType)

function toEvent(
  req: IncomingMessage,
  body: Buffer,
  route: Route | undefined,
  params: Record<string, string>,
): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost')
  const rawQueryString = (req.url ?? '').includes('?')
    ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1)
    : ''
  const headers: Record<string, string> = {}
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase()
    const value = req.rawHeaders[i + 1]!
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`
  }
  const query: Record<string, string> = {}
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`
  const method = req.method ?? 'GET'
  const text = isText(headers['content-type'])
  const now = new Date()
  const routeKey = route ? `${route.method} ${route.path}` : '$default'
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters: query } : {}),
    ...(Object.keys(params).length ? { pathParameters: params } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString(text ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  }
}

function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 29_000
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  }
}

function write(res: ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined
  // A length, as API Gateway sends, rather than chunked encoding.
  res.writeHead(result.statusCode ?? 200, {
    ...(result.headers as Record<string, string>),
    'content-length': String(body?.length ?? 0),
  })
  res.end(body)
}

export interface ServerOptions {
  /** functionId -> Lambda bundle file: each request runs its function's bundle (`npm start -- --bundles`). */
  bundles?: Record<string, string>
  /**
   * Awaited after each request that may write, before its reply goes out: the local stream drive's
   * `settled`, so that locally what a write started asynchronously (the merchant history) is done
   * when the client sees the reply. In AWS the history trails by the stream's delay instead.
   */
  afterWrite?: () => Promise<void>
  /**
   * Each function's grants (functionId -> Access), which every AWS call it makes is held to
   * (scripts/local/iam.ts): read from the cloud assembly when serving its bundles; by default those
   * the sources derive the policies from.
   */
  grants?: Grants
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

async function handle(req: IncomingMessage, res: ServerResponse, options: ServerOptions): Promise<void> {
  const body = await readBody(req)
  const path = new URL(req.url ?? '/', 'http://localhost').pathname
  let matched: ReturnType<typeof match>
  try {
    matched = match(req.method ?? 'GET', path)
  } catch (error) {
    if (!(error instanceof MalformedPath)) throw error
    const route = routes.find((r) => r.method === req.method && pathMatches(r.path, path))!
    return write(res, malformedPathReply(route, error.message))
  }
  const { route, params } = matched
  const target = route ?? { functionId: UNROUTED.functionId, handler: UNROUTED.handler }
  const event = toEvent(req, body, route, params)
  // As Lambda runs it: loaded and invoked with the function's role (scripts/local/iam.ts).
  const result = await asFunction(target.functionId, async () => {
    const handler = await loadHandler(target.handler, target.functionId)
    return handler(event, lambdaContext(target.functionId, event.requestContext.requestId))
  })
  if (options.afterWrite && WRITES.has(req.method ?? 'GET')) await options.afterWrite()
  write(res, result)
}

/**
 * Requests Node's HTTP parser refuses never reach a handler: a bad request line (method `FOO` or
 * `get`, a target without `/`), a control character in a header, a header section over 16 KB. They
 * still get a short JSON `{message}` and a status, never an empty reply (CONTRACT section 9).
 */
const PARSER_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are larger than the limit of 16 KB'],
  HPE_INVALID_METHOD: [
    405,
    'The request method is not one this API knows: use GET, POST, PUT, PATCH or DELETE',
  ],
  HPE_INVALID_URL: [400, 'The request target must be a path starting with /'],
  HPE_INVALID_HEADER_TOKEN: [400, 'A header name or value holds a character HTTP does not allow'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
}

function rawReply(socket: Duplex, status: number, message: string, extra: Record<string, string> = {}) {
  const body = JSON.stringify({ message })
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...extra,
  }
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`)
}

function onClientError(error: Error & { code?: string }, socket: Duplex) {
  // Nothing to answer on a connection the client already dropped, or one a reply is being written to.
  if (
    error.code === 'ECONNRESET' ||
    !socket.writable ||
    (socket as Socket & { _httpMessage?: unknown })._httpMessage
  ) {
    socket.destroy()
    return
  }
  const [status, message] = PARSER_ERRORS[error.code ?? ''] ?? [
    400,
    'The request could not be parsed as HTTP/1.1',
  ]
  rawReply(socket, status, message)
}

/** CONNECT asks for a tunnel, which an API does not offer: 405 and the connection closed. */
function onConnect(_req: IncomingMessage, socket: Duplex) {
  rawReply(socket, 405, 'CONNECT is not supported: this is an HTTP API, not a proxy', {
    allow: 'GET, POST, PUT, PATCH, DELETE',
  })
}

export interface LocalServer {
  url: string
  server: Server
  close(): Promise<void>
}

/**
 * Serves the route table on 127.0.0.1. TABLE_NAME and DYNAMODB_ENDPOINT must already be set.
 * With `bundles` (functionId -> file), each request runs its function's Lambda bundle.
 */
export async function startServer(port = 0, options: ServerOptions = {}): Promise<LocalServer> {
  bundles = options.bundles
  installLocalIam(options.grants)
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      // Handlers map their own errors; reaching here means the handler module itself failed to load.
      console.error('local server: request failed', error)
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: 'The local server could not run the handler; see its console' }))
    })
  })
  server.on('clientError', onClientError)
  server.on('connect', onConnect)
  // Longer than any client keeps an idle connection (fetch's undici: 4 s): the client closes first,
  // so a request is never sent on a connection the server is closing at that moment (ECONNRESET).
  // At 5 s the two were a second apart, which a busy event loop under a loaded test run erased.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
