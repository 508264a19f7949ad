import { startDynamoProxy } from './dynamo-proxy.ts'

/**
 * A proxy in front of DynamoDB Local that lets a test step into one request: the API talks to
 * DynamoDB through it (startApi's `dynamoEndpoint`), and a hook set for a DynamoDB operation whose
 * body contains a marker (a requestId) runs `before` the request is passed on and decides, `after`
 * DynamoDB has answered, whether the answer is sent back or held (never sent: the function hangs past
 * its commit, as when a Lambda times out or its connection drops before it replies). Everything else
 * is passed on unchanged.
 */
export interface Interception {
  operation: string
  marker: string
  before?: () => Promise<void>
  /** true: the answer is held until close(). */
  hold?: boolean
}

export interface DynamoInterceptor {
  endpoint: string
  /** Sets the hook for the next matching request (once). */
  intercept(hook: Interception): Promise<void>
  close(): Promise<void>
}

export async function startDynamoInterceptor(target: string): Promise<DynamoInterceptor> {
  let hook: (Interception & { matched: () => void }) | undefined
  // The request the hook is for, from its arrival to DynamoDB's answer (the hook is used once).
  let mine: typeof hook
  const proxy = await startDynamoProxy(target, {
    async onRequest({ operation, body }) {
      if (!hook || hook.operation !== operation || !body.includes(hook.marker)) return
      mine = hook
      hook = undefined
      await mine.before?.()
    },
    onAnswer({ operation, body }) {
      if (!mine || mine.operation !== operation || !body.includes(mine.marker)) return undefined
      const answered = mine
      mine = undefined
      answered.matched()
      return answered.hold ? 'hold' : undefined
    },
  })
  return {
    ...proxy,
    intercept: (set) =>
      new Promise<void>((resolve) => {
        hook = { ...set, matched: resolve }
      }),
  }
}
