// Where a provider refund goes next, from what the provider answered (decision 110). A pure rule,
// unit- and mutation-tested; the 'refund.provider' job (provider-job.ts) carries it out.
import type { ProviderRefundState } from '../../providers/types'

/** What the provider's side of one job run came to. */
export type ProviderAnswer =
  | { state: ProviderRefundState }
  /** `rejected`: the provider refused the request itself (nothing created); else the outcome is unknown. */
  | { error: 'rejected' | 'unknown' }
  /** No adapter that can refund now (none, or its keys are gone). */
  | { unavailable: true }

export type RefundStep =
  /** the provider paid it back: done */
  | 'complete'
  /** the provider holds it, or may: ask again later, for as long as it takes */
  | 'wait'
  /** outcome unknown and attempts left: fail this run, the queue retries with backoff */
  | 'retry'
  /** the provider will not pay it: a person chooses the route */
  | 'person'

/**
 * `held`: the provider gave the refund an id (it exists there). `attemptsLeft`: the job may still
 * fail and be retried by the queue.
 */
export function nextRefundStep(answer: ProviderAnswer, held: boolean, attemptsLeft: boolean): RefundStep {
  if ('state' in answer) {
    if (answer.state === 'succeeded') return 'complete'
    if (answer.state === 'canceled') return 'person'
    return 'wait'
  }
  // a refund the provider holds may still be paid, whatever the provider answers now
  if (held) return 'wait'
  if ('unavailable' in answer || answer.error === 'rejected') return 'person'
  return attemptsLeft ? 'retry' : 'wait'
}
