// The discriminators the storefront knows (§1, §3, §4). A value outside these lists means the API
// speaks a newer contract than this build: raise, rather than render something half-understood.
// Mappers call these where they branch on the kind: `switch (assertGameKind(game.resourcetype))`.
import type { components } from '#openapi/schema'

type Schemas = components['schemas']

/**
 * Every value of a union from the contract (openapi/schema.d.ts), as a runtime list. `satisfies
 * Record<T, true>` makes the compiler refuse a value the contract lacks and a value it has that the
 * list forgets, so the lists follow the API's enums through `npm run gen:api`.
 */
const valuesOf = <T extends string>(all: Record<T, true>) => Object.keys(all) as T[]

export type GameKind = NonNullable<Schemas['OrderGame']>['resourcetype']
export type ProductKind = Schemas['OrderLine']['resourcetype']
export type OrderKind = Schemas['RecalculatedOrder']['resourcetype']
export type ScenarioType = Schemas['PaymentData']['type']
export type OrderStatus = Schemas['RecalculatedOrder']['status']

export const GAME_KINDS = valuesOf<GameKind>({
  PUBGGame: true,
  StandoffGame: true,
  Steam: true,
  SupplyGame: true,
})
export const PRODUCT_KINDS = valuesOf<ProductKind>({
  PUBGProduct: true,
  StandoffProduct: true,
  SteamProduct: true,
  SupplyProduct: true,
})
export const ORDER_KINDS = valuesOf<OrderKind>({
  MooGoldOrder: true,
  PUBGOrder: true,
  RokkyOrder: true,
  StandoffOrder: true,
  SteamOrder: true,
})
export const GIFT_KINDS = valuesOf<Schemas['RokkyGift']['resourcetype']>({ RokkyGift: true })
/** Order status values (§4). */
export const ORDER_STATUSES = valuesOf<OrderStatus>({
  created: true,
  waiting_for_payment: true,
  paid: true,
  sending: true,
  sent: true,
  done: true,
  failed: true,
})
export const SCENARIO_TYPES = valuesOf<ScenarioType>({
  external: true,
  form: true,
  invoice_qr: true,
  p2p: true,
  p2p_redirect: true,
  qr: true,
  redirect: true,
  wait_order_state: true,
})

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
