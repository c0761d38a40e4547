import type { DeliveryResult, Fulfiller } from './types'

/**
 * Offline supplier for the demo and tests: Standoff gold, Steam top-ups and supply-channel orders
 * of a `sandbox` game count as delivered at once. Only while sandbox payments are on: elsewhere
 * such a game is delivered by a person (effectiveSupplier, decision 042).
 */
export const sandboxFulfiller: Fulfiller = {
  kinds: ['StandoffOrder', 'SteamOrder', 'MooGoldOrder'],
  supplier: 'sandbox',
  async deliver(): Promise<DeliveryResult> {
    return { outcome: 'done' }
  },
}
