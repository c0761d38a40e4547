// What a payment method may be set to in the back-office: which payment systems exist, which of
// them can take payments now (keys set; the sandbox only while sandbox payments are on), and the
// kinds a method of each may name (YooKassa's payment_method_data.type, the sandbox's scenario).
import { and, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { countries, paymentMethodGroups, paymentMethods } from '../../db/schema'
import { refuseField } from '../../lib/domain-error'
import { getProvider, isMethodUsable } from '../../providers'
import { SCENARIO_TYPES } from '../../providers/types'
import { YOOKASSA_CURRENCIES, YOOKASSA_KINDS } from '../../providers/yookassa'

export const PROVIDER_NAMES = ['yookassa', 'payselection', 'getpay', 'sandbox'] as const
type ProviderName = (typeof PROVIDER_NAMES)[number]

const KINDS: Record<ProviderName, readonly string[]> = {
  yookassa: YOOKASSA_KINDS,
  payselection: [],
  getpay: [],
  sandbox: SCENARIO_TYPES,
}

/** The currencies each system can charge; null: whatever the country's currency is. */
const CURRENCIES: Record<ProviderName, readonly string[] | null> = {
  yookassa: YOOKASSA_CURRENCIES,
  payselection: null,
  getpay: null,
  sandbox: null,
}

const ICONS: Record<string, string> = {
  bank_card: '/images/payment/card.svg',
  sbp: '/images/payment/sbp.svg',
  sberbank: '/images/payment/phone.svg',
  tinkoff_bank: '/images/payment/wallet.svg',
  invoice_qr: '/images/payment/qr.svg',
  qr: '/images/payment/qr.svg',
}

/** The provider has its keys and is allowed in this mode: a method of it can be switched on. */
export function providerReady(deps: ApiDeps, name: string): boolean {
  return getProvider(name)?.isAvailable(deps) === true
}

/** The systems the owner may choose from now (no sandbox in production). */
export function providerChoices(deps: ApiDeps) {
  return PROVIDER_NAMES.filter((n) => n !== 'sandbox' || deps.config.sandboxPayments).map((name) => ({
    name,
    ready: providerReady(deps, name),
    kinds: [...KINDS[name]],
  }))
}

/**
 * Checks a method's provider and kind together; the kind to store and a default icon. Refused: the
 * sandbox outside sandbox mode, a kind the provider does not know (YooKassa needs one).
 */
export function checkProviderKind(
  deps: ApiDeps,
  provider: string,
  rawKind: string | null,
): { kind: string | null; icon: string } {
  if (provider === 'sandbox' && !deps.config.sandboxPayments)
    throw refuseField('provider', 'payment_provider_sandbox_off')
  const kinds = KINDS[provider as ProviderName] ?? []
  const kind = rawKind?.trim() || null
  if (kind === null ? provider === 'yookassa' : !kinds.includes(kind))
    throw refuseField('kind', 'payment_method_kind_unknown', { kinds: kinds.join(', ') || '—' })
  return { kind, icon: ICONS[kind ?? ''] ?? '/images/payment/card.svg' }
}

/** A method charges its country's currency: a system that cannot charge it is refused. */
export function checkProviderCurrency(provider: string, currency: string): void {
  const allowed = CURRENCIES[provider as ProviderName]
  if (allowed && !allowed.includes(currency))
    throw refuseField('provider', 'payment_provider_currency', {
      provider,
      currency,
      currencies: allowed.join(', '),
    })
}

/** What the back-office shows as on is what the buyer can use: no keys, no switching on. */
export function checkCanSwitchOn(deps: ApiDeps, provider: string): void {
  if (!providerReady(deps, provider))
    throw refuseField('is_active', 'payment_provider_not_configured', { provider })
}

/** How many methods a buyer can pay with now: on, provider ready, in a country not hidden. */
export async function usableMethodCount(deps: ApiDeps): Promise<number> {
  const rows = await deps.db
    .select({ isActive: paymentMethods.isActive, provider: paymentMethods.provider })
    .from(paymentMethods)
    .innerJoin(paymentMethodGroups, eq(paymentMethodGroups.id, paymentMethods.groupId))
    .innerJoin(countries, eq(countries.id, paymentMethodGroups.countryId))
    .where(and(eq(paymentMethods.isActive, true), eq(countries.hidden, false)))
  return rows.filter((m) => isMethodUsable(deps, m)).length
}
