import type { DeliveryResult, Fulfiller } from './types'

/**
 * Offline supplier for the demo and tests: Standoff gold, Steam top-ups and supply-channel orders
 * count as delivered at once.
 */
export const sandboxFulfiller: Fulfiller = {
  kinds: ['StandoffOrder', 'SteamOrder', 'MooGoldOrder'],
  async deliver(): Promise<DeliveryResult> {
    return { outcome: 'done' }
  },
}
