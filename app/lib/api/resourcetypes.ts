// The discriminators the storefront knows (§1, §3, §4). A value outside these lists means the API
// speaks a newer contract than this build: raise, rather than render something half-understood.
// Mappers call these where they branch on the kind: `switch (assertGameKind(game.resourcetype))`.

export const GAME_KINDS = ['PUBGGame', 'StandoffGame', 'Steam', 'SupplyGame'] as const
export const PRODUCT_KINDS = ['PUBGProduct', 'StandoffProduct', 'SteamProduct', 'SupplyProduct'] as const
export const ORDER_KINDS = ['MooGoldOrder', 'PUBGOrder', 'RokkyOrder', 'StandoffOrder', 'SteamOrder'] as const
export const GIFT_KINDS = ['RokkyGift'] as const
/** Order status values (§4). */
export const ORDER_STATUSES = [
  'created',
  'waiting_for_payment',
  'paid',
  'sending',
  'sent',
  'done',
  'failed',
] as const
export const SCENARIO_TYPES = [
  'external',
  'form',
  'invoice_qr',
  'p2p',
  'p2p_redirect',
  'qr',
  'redirect',
  'wait_order_state',
] as const

export type GameKind = (typeof GAME_KINDS)[number]
export type ProductKind = (typeof PRODUCT_KINDS)[number]
export type OrderKind = (typeof ORDER_KINDS)[number]
export type GiftKind = (typeof GIFT_KINDS)[number]
export type ScenarioType = (typeof SCENARIO_TYPES)[number]
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** Raised for a `resourcetype` or payment scenario `type` this build does not know. */
export class UnknownKindError extends Error {
  constructor(
    readonly what: string,
    readonly value: unknown,
  ) {
    super(`Unknown ${what}: ${JSON.stringify(value) ?? String(value)}`)
    this.name = 'UnknownKindError'
  }
}

function asserter<K extends string>(what: string, known: readonly K[]) {
  return (value: unknown): K => {
    if (typeof value === 'string' && (known as readonly string[]).includes(value)) return value as K
    throw new UnknownKindError(what, value)
  }
}

export const assertGameKind = asserter('game resourcetype', GAME_KINDS)
export const assertProductKind = asserter('product resourcetype', PRODUCT_KINDS)
export const assertOrderKind = asserter('order resourcetype', ORDER_KINDS)
export const assertGiftKind = asserter('gift resourcetype', GIFT_KINDS)
export const assertScenarioType = asserter('payment scenario type', SCENARIO_TYPES)
