// The «Антифрод» settings: velocity limits and risk rules with their thresholds. One database row
// (risk_settings) holds what the back-office changed; everything else takes its default, which
// comes from the environment (ORDER_LIMIT_*, PAYMENT_LIMIT_*, RISK_PAID_PER_ADDRESS, RISK_RULES).
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import type { Db, Tx } from '../../db/client'
import { riskSettings } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { message } from '../../lib/errors'

export const RISK_RULES = [
  'first_order_over',
  'paid_per_email',
  'paid_per_address',
  'paid_per_card',
  'card_many_emails',
  'card_country',
  'disposable_email',
  'promo_first_order_over',
] as const
export type RiskRule = (typeof RISK_RULES)[number]

// decision 142: an address alone never holds an order (carrier-grade NAT puts a mobile network's
// buyers behind one IPv4)
const PAID_PER_ADDRESS =
  'Holds an order whose email is new (no paid order of its email key before the last hour) when more ' +
  'than paid_per_address_hour new emails, its own included, paid from its network (IPv6 /64, IPv4 ' +
  'exact) in the last hour. Returning buyers neither count nor are held by it (decision 142).'

// Russian messages (locales/ru/api.json): the back-office «Антифрод» form shows them by its fields
const count = z
  .number(message('field_integer_enter'))
  .int(message('field_integer_enter'))
  .min(1, message('field_min', { min: 1 }))
  .max(1_000_000, message('field_max', { max: '1 000 000' }))
/** Kopecks. */
const sum = z
  .number(message('field_rubles_enter'))
  .int(message('field_rubles_decimals'))
  .min(0, message('field_amount_not_negative'))
  .max(100_000_000_00, message('field_risk_amount_max'))

export const RiskSettingsSchema = z.object({
  /** Velocity limits: orders and payment starts per client address and per email in the window. */
  order_per_address: count,
  order_per_email: count,
  payment_per_address: count,
  payment_per_email: count,
  window_minutes: z
    .number(message('field_minutes_integer'))
    .int(message('field_minutes_integer'))
    .min(1, message('field_minutes_min'))
    .max(1440, message('field_minutes_max')),
  /** Which rules hold an order for review. */
  // every rule named (an object, not a record: the contract then lists each key as required)
  rules: z.strictObject(
    Object.fromEntries(
      RISK_RULES.map((r) => {
        const on = z.boolean(message('field_rule_on_off'))
        return [r, r === 'paid_per_address' ? on.describe(PAID_PER_ADDRESS) : on]
      }),
    ) as Record<RiskRule, z.ZodBoolean>,
  ),
  first_order_over: sum,
  paid_per_hour: count,
  paid_per_address_hour: count.describe(`The threshold of paid_per_address. ${PAID_PER_ADDRESS}`),
  card_emails_per_day: count,
  promo_first_order_over: sum,
})
export type RiskSettings = z.infer<typeof RiskSettingsSchema>

export function defaultRiskSettings(config: Pick<ApiConfig, 'risk'>): RiskSettings {
  const on = config.risk.rulesOn
  return {
    order_per_address: config.risk.orderPerAddress,
    order_per_email: config.risk.orderPerEmail,
    payment_per_address: config.risk.paymentPerAddress,
    payment_per_email: config.risk.paymentPerEmail,
    window_minutes: 10,
    rules: Object.fromEntries(RISK_RULES.map((r) => [r, on === null || on.includes(r)])) as Record<
      RiskRule,
      boolean
    >,
    first_order_over: 3000_00,
    paid_per_hour: 3,
    paid_per_address_hour: config.risk.paidPerAddress,
    card_emails_per_day: 2,
    promo_first_order_over: 3000_00,
  }
}

/** The settings in force: the stored ones over the defaults (a stored key that no longer parses is ignored). */
export async function loadRiskSettings(db: Db | Tx, config: Pick<ApiConfig, 'risk'>): Promise<RiskSettings> {
  const def = defaultRiskSettings(config)
  const [row] = await db.select().from(riskSettings).where(eq(riskSettings.id, 1))
  if (!row) return def
  const merged = { ...def, ...row.settings, rules: { ...def.rules, ...(row.settings.rules ?? {}) } }
  const parsed = RiskSettingsSchema.safeParse(merged)
  return parsed.success ? parsed.data : def
}

/** Stores the settings the back-office saved (all of them: later default changes do not move them). */
export async function saveRiskSettings(db: Db | Tx, settings: RiskSettings): Promise<void> {
  await db
    .insert(riskSettings)
    .values({ id: 1, settings, updated: new Date() })
    .onConflictDoUpdate({ target: riskSettings.id, set: { settings, updated: new Date() } })
}
