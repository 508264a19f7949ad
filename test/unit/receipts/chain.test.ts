import { describe, expect, it } from 'vitest'
import {
  type ChainLink,
  type ChainRecord,
  chainView,
  emptyChain,
  withFork,
  withLink,
  withSibling,
} from '../../../lib/receipts/chain.ts'

/**
 * A device's chain (lib/receipts/chain.ts) when a till's regenerated retry (a second receipt at a
 * counter, naming the same prev_hash) arrives before the original: receipts arrive in any order
 * (CONTRACT 23), and verified_through counts receipts 1..n all here, each naming its predecessor.
 */
const at = '2026-12-03T08:00:00.000Z'
const link = (counter: number, hash: string, prevHash: string): ChainLink => ({
  counter,
  hash,
  prevHash,
  issuedAt: at,
  late: false,
  receivedAt: at,
})
const verified = (chain: ChainRecord) => chainView(chain, Date.parse(at)).verified_through
const r1 = link(1, 'h1', 'genesis')
// The original of counter 2 is h2 (prev h1); its retry f2 names h1 too.
const retry2 = link(2, 'f2', 'h1')
const r3 = link(3, 'h3', 'h2')

/** The retry first: it holds counter 2; the original is its FORK, a sibling (same prev_hash). */
const retryFirst = () => withLink(withLink(emptyChain('dev_1'), r1), retry2)
const originalAsFork = (chain: ChainRecord) =>
  withSibling(withFork(chain, { counter: 2, hashes: ['f2', 'h2'] }), { counter: 2, hash: 'h2' })

describe('a chain whose retry arrived before its original', () => {
  it('goes on through the original when the next receipt names it after the original came', () => {
    const chain = withLink(originalAsFork(retryFirst()), r3)
    expect(verified(chain)).toBe(3)
    expect(chainView(chain, Date.parse(at)).forks).toEqual([{ counter: 2, hashes: ['f2', 'h2'] }])
  })

  it('joins the runs when the original comes after the receipt that names it', () => {
    const split = withLink(retryFirst(), r3)
    expect(verified(split)).toBe(2)
    const chain = originalAsFork(split)
    expect(verified(chain)).toBe(3)
    expect(chain.runs).toHaveLength(1)
    expect(chainView(chain, Date.parse(at)).gaps).toEqual([])
  })

  it('does not link through a receipt that is no sibling: the chain stays forked there', () => {
    const chain = withLink(withFork(retryFirst(), { counter: 2, hashes: ['f2', 'h2'] }), r3)
    expect(verified(chain)).toBe(2)
  })

  it('changes nothing when the same sibling is merged again', () => {
    const once = originalAsFork(withLink(retryFirst(), r3))
    expect(withSibling(once, { counter: 2, hash: 'h2' })).toBe(once)
  })

  it('keeps the siblings out of the chain the API answers', () => {
    const view = chainView(originalAsFork(retryFirst()), Date.parse(at))
    expect(Object.keys(view)).not.toContain('siblings')
  })
})
