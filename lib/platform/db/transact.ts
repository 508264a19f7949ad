import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb'
import { db } from './client.ts'
import { assertWriteFits } from './write.ts'

/** One action of a TransactWriteItems (every element names its own operation and table). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number]

/**
 * A transaction's actions by name, in the order written: one action, a group of them, or nothing
 * (`undefined` or an empty group, for an action only some transactions have). Names are what a
 * failure reports, so no caller counts positions in DynamoDB's cancellation reasons.
 */
export type NamedItems = Record<string, TransactItem | readonly TransactItem[] | undefined>

/**
 * A transaction DynamoDB cancelled because a condition failed or another transaction held an item:
 * `failed` names the items whose condition failed (in order; `positions` says which of a group's),
 * `conflict` says some item was in another transaction. `error` is the cancellation itself, for the
 * callers that treat a failure they did not expect as the error it is.
 */
export interface Cancelled<N extends string> {
  ok: false
  failed: N[]
  positions: Partial<Record<N, number[]>>
  conflict: boolean
  error: Error
}

export type Transacted<N extends string> = { ok: true } | Cancelled<N>

/**
 * A cancellation a writer does not decide on itself, thrown on to its caller with the names of the
 * items whose condition failed, so the caller that added those items can still tell its own.
 */
export class TransactionRefused extends Error {
  readonly failed: string[]
  readonly conflict: boolean
  constructor(cancelled: Cancelled<string>) {
    super(
      `Transaction cancelled (failed: ${cancelled.failed.join(', ') || 'none'}; conflict: ${cancelled.conflict})`,
      {
        cause: cancelled.error,
      },
    )
    this.name = 'TransactionRefused'
    this.failed = cancelled.failed
    this.conflict = cancelled.conflict
  }
}

/** Whether an error is a refused transaction whose item `name` failed its condition. */
export const refusedBy = (error: unknown, name: string) =>
  error instanceof TransactionRefused && error.failed.includes(name)

/**
 * Runs the items as one TransactWriteItems. A cancellation by failed conditions or conflicts is an
 * answer (a `Cancelled` naming the items), not an exception: it is the outcome optimistic writers
 * decide on. Anything else (a cancellation for another reason included) is thrown.
 */
export async function transact<I extends NamedItems>(items: I): Promise<Transacted<keyof I & string>> {
  type N = keyof I & string
  const owners: { name: N; index: number }[] = []
  const actions: TransactItem[] = []
  for (const [name, value] of Object.entries(items) as [N, I[N]][]) {
    const group = value === undefined ? [] : Array.isArray(value) ? value : [value as TransactItem]
    group.forEach((action, index) => {
      owners.push({ name, index })
      actions.push(action)
    })
  }
  // Every item sized first: one over DynamoDB's limit is a 400 before any of them is written.
  for (const action of actions) assertWriteFits(action)
  try {
    await db().send(new TransactWriteCommand({ TransactItems: actions }))
    return { ok: true }
  } catch (error) {
    const codes = cancellationCodes(error)
    const outcome = codes && cancelledBy(owners, codes)
    if (!outcome) throw error
    return { ...outcome, error: error as Error }
  }
}

/**
 * What a cancellation's reasons (one per action, in request order) say by name: the items whose
 * condition failed, which members of a group, and whether another transaction held an item.
 * Undefined for a cancellation for any other reason, which is an error, not an answer.
 */
export function cancelledBy<N extends string>(
  owners: readonly { name: N; index: number }[],
  codes: readonly string[],
): Omit<Cancelled<N>, 'error'> | undefined {
  if (!codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict')) return undefined
  const failed: N[] = []
  const positions: Partial<Record<N, number[]>> = {}
  codes.forEach((code, i) => {
    const owner = owners[i]
    if (code !== 'ConditionalCheckFailed' || !owner) return
    if (!failed.includes(owner.name)) failed.push(owner.name)
    positions[owner.name] = [...(positions[owner.name] ?? []), owner.index]
  })
  return { ok: false, failed, positions, conflict: codes.includes('TransactionConflict') }
}

/** The cancellation reasons of a failed TransactWriteItems, one per action in request order. */
function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons
  return (reasons ?? []).map((r) => r.Code ?? 'None')
}
