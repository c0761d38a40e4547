import type { DeliveryResult, Fulfiller } from './types'

/**
 * Delivery by a person: Standoff gold, Steam top-ups and supply-channel orders of a game whose
 * supplier is `manual` wait at the back-office's delivery desk (services/delivery/desk.ts).
 */
export const manualFulfiller: Fulfiller = {
  kinds: ['StandoffOrder', 'SteamOrder', 'MooGoldOrder'],
  supplier: 'manual',
  deliversLater: true,
  async deliver(): Promise<DeliveryResult> {
    return { outcome: 'manual' }
  },
}
