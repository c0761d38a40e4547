// What a promo code takes its percent off, per order kind (the API's services/promo/scope.ts). Its
// own module: the pay page reads only this, and importing it from totals.ts pulled the whole order
// form's arithmetic into the pay page's first load (0.4 KB over the 95 KB budget).

export type PromoTarget = 'price' | 'commission'
export const PROMO_TARGET = {
  PUBGOrder: 'price',
  StandoffOrder: 'price',
  MooGoldOrder: 'price',
  RokkyOrder: 'price',
  SteamOrder: 'commission',
} as const satisfies Record<string, PromoTarget>
export type QuotedKind = keyof typeof PROMO_TARGET
