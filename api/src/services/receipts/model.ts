// Our fiscal receipt model (54-ФЗ) and the one rule for its item lines: they add up, in kopecks, to
// the money actually paid. Promo codes and the balance lower what is paid, so the lines' catalogue
// sums are scaled down in proportion (largest remainder, never a fraction of a kopeck); a line whose
// scaled sum does not divide by its quantity becomes two lines (unit prices p and p + 1), so every
// line's sum is exactly price × quantity. Pure code: mutation-tested (stryker.config.mjs).

export const VAT_RATES = [
  'none',
  'vat0',
  'vat5',
  'vat7',
  'vat10',
  'vat20',
  'vat22',
  'vat105',
  'vat107',
  'vat110',
  'vat120',
  'vat122',
] as const
export type VatRate = (typeof VAT_RATES)[number]

/** Предмет расчёта: names as YooKassa and ATOL v4 spell them. */
export const PAYMENT_OBJECTS = ['commodity', 'service', 'payment', 'agent_commission', 'another'] as const
export type PaymentObject = (typeof PAYMENT_OBJECTS)[number]

/** СНО: ОСН, УСН «доходы», УСН «доходы минус расходы», ЕСХН, ПСН (ATOL's names). */
export const TAX_SYSTEMS = ['osn', 'usn_income', 'usn_income_outcome', 'esn', 'patent'] as const
export type TaxSystem = (typeof TAX_SYSTEMS)[number]

/** What a receipt line sells; each kind has its VAT and payment object in the owner's settings. */
export const ITEM_KINDS = ['codes', 'topup', 'gift', 'steam_topup', 'commission'] as const
export type ItemKind = (typeof ITEM_KINDS)[number]

export const RECEIPT_TRANSPORTS = ['sandbox', 'atol', 'with_payment'] as const
export type ReceiptTransport = (typeof RECEIPT_TRANSPORTS)[number]

export interface ItemRule {
  vat: VatRate
  payment_object: PaymentObject
}
export type ItemRules = Record<ItemKind, ItemRule>

/** Until an accountant says otherwise (docs/decisions/059-fiscal-receipt-rules.md). */
export const DEFAULT_ITEM_RULES: ItemRules = {
  codes: { vat: 'none', payment_object: 'commodity' },
  topup: { vat: 'none', payment_object: 'service' },
  gift: { vat: 'none', payment_object: 'commodity' },
  steam_topup: { vat: 'none', payment_object: 'payment' },
  commission: { vat: 'none', payment_object: 'service' },
}

/** A line of the order at catalogue prices (kopecks), before promo and balance. */
export interface GrossLine {
  kind: ItemKind
  name: string
  quantity: number
  unitPrice: number
}

/** A receipt line: `sum` = `price` × `quantity`, kopecks. Payment method is always «полный расчёт». */
export interface ReceiptItem {
  name: string
  kind: ItemKind
  quantity: number
  price: number
  sum: number
  vat: VatRate
  payment_object: PaymentObject
}

/** The seller block of a receipt. `payment_address`: the shop's public origin. */
export interface ReceiptSeller {
  inn: string
  name: string
  email: string
  tax_system: TaxSystem
  payment_address: string
}

/** Fiscal service limit on an item name. */
export const ITEM_NAME_MAX = 128

/**
 * Shares `paid` among `sums` in proportion, in whole kopecks: floor of each exact share, then the
 * kopecks left over one each to the largest remainders (earlier lines first on a tie). The result
 * adds up to `paid` and, when `paid` ≤ Σ`sums`, no share exceeds its sum.
 */
export function allocate(sums: readonly number[], paid: number): number[] {
  const gross = sums.reduce((a, b) => a + b, 0)
  if (gross === 0) {
    if (paid !== 0) throw new RangeError('nothing to share the payment among')
    return sums.map(() => 0)
  }
  const g = BigInt(gross)
  const p = BigInt(paid)
  const exact = sums.map((s) => BigInt(s) * p)
  const shares = exact.map((e) => Number(e / g))
  let left = paid - shares.reduce((a, b) => a + b, 0)
  const order = exact
    .map((e, i) => ({ i, rem: e % g }))
    .sort((a, b) => (a.rem === b.rem ? a.i - b.i : a.rem > b.rem ? -1 : 1))
  for (const { i } of order) {
    if (left === 0) break
    shares[i] = (shares[i] as number) + 1
    left -= 1
  }
  return shares
}

/**
 * One line of `quantity` units costing `sum` in all, as receipt lines with whole-kopeck unit prices:
 * one line when `sum` divides by `quantity`, else (quantity − r) × p and r × (p + 1).
 */
export function splitLine(
  quantity: number,
  sum: number,
): Array<{ quantity: number; price: number; sum: number }> {
  const price = Math.floor(sum / quantity)
  const dearer = sum - price * quantity
  const out = [{ quantity: quantity - dearer, price, sum: price * (quantity - dearer) }]
  // dearer < quantity: the first line always has units
  if (dearer > 0) out.push({ quantity: dearer, price: price + 1, sum: (price + 1) * dearer })
  return out
}

/**
 * The receipt lines of a payment: the order's lines scaled to `toPay` (the order's total to pay,
 * after promo and balance), plus the payment method's `fee` as a commission line. Lines left at
 * zero (all paid by the balance) are not printed. The sum of the lines is `toPay + fee`.
 */
export function receiptItems(
  lines: readonly GrossLine[],
  money: { toPay: number; fee: number },
  rules: ItemRules,
  feeName: string,
): ReceiptItem[] {
  const gross = lines.map((l) => l.quantity * l.unitPrice)
  const shares = allocate(gross, money.toPay)
  const items: ReceiptItem[] = []
  lines.forEach((line, i) => {
    for (const part of splitLine(line.quantity, shares[i] as number)) {
      if (part.sum === 0) continue
      items.push({ name: line.name.slice(0, ITEM_NAME_MAX), kind: line.kind, ...part, ...rules[line.kind] })
    }
  })
  if (money.fee > 0)
    items.push({
      name: feeName,
      kind: 'commission',
      quantity: 1,
      price: money.fee,
      sum: money.fee,
      ...rules.commission,
    })
  return items
}

export const itemsTotal = (items: ReadonlyArray<{ sum: number }>) => items.reduce((a, i) => a + i.sum, 0)

/** Owner's per-kind rules over the defaults: a kind missing or invalid in storage keeps its default. */
export function mergeItemRules(
  stored: Record<string, { vat?: unknown; payment_object?: unknown }> | null,
): ItemRules {
  const out = { ...DEFAULT_ITEM_RULES }
  for (const kind of ITEM_KINDS) {
    const r = stored?.[kind]
    if (!r) continue
    out[kind] = {
      vat: VAT_RATES.includes(r.vat as VatRate) ? (r.vat as VatRate) : DEFAULT_ITEM_RULES[kind].vat,
      payment_object: PAYMENT_OBJECTS.includes(r.payment_object as PaymentObject)
        ? (r.payment_object as PaymentObject)
        : DEFAULT_ITEM_RULES[kind].payment_object,
    }
  }
  return out
}
