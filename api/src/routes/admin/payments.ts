// Back-office payment setup: countries (hidden or offered), method groups and methods (provider,
// active, fees, limits, icon, order); the owner creates them all here, no SQL needed.
import { z } from '@hono/zod-openapi'
import type { ApiApp, ApiDeps } from '../../context'
import { toMoney } from '../../lib/money'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { PROVIDER_NAMES, providerChoices, providerReady } from '../../services/payments/method-setup'
import { deleteCountry, deletePaymentGroup, deletePaymentMethod } from '../../services/payments/setup-delete'
import {
  createCountry,
  createPaymentGroup,
  createPaymentMethod,
  type MethodSettings,
  type PaymentCountry as Country,
  type PaymentGroup as Group,
  type PaymentMethod as Method,
  patchCountry,
  patchPaymentGroup,
  patchPaymentMethod,
  paymentSetup,
} from '../../services/payments/setup-edit'
import { Filled, Int, jsonBody, Money, Text } from './fields'
import { adminRoute, staffOf } from './guard'
import { message } from '../../lib/errors'

const methodOut = (deps: ApiDeps) => (m: Method) => ({
  id: m.id,
  name: m.name,
  title: m.title,
  provider: m.provider,
  provider_ready: providerReady(deps, m.provider),
  kind: m.scenario,
  icon: m.icon,
  is_active: m.isActive,
  fee_bp: m.fee,
  fix_fee: toMoney(m.fixFee),
  min_amount: toMoney(m.minAmount),
  is_secondary: m.isSecondary,
  currencies: m.currencies,
  sort_order: m.sortOrder,
})
const groupOut = (deps: ApiDeps, g: Group, methods: Method[]) => ({
  id: g.id,
  name: g.name,
  short_name: g.shortName,
  order: g.order,
  methods: methods.filter((m) => m.groupId === g.id).map(methodOut(deps)),
})
const countryOut = (deps: ApiDeps, c: Country, groups: Group[], methods: Method[]) => ({
  id: c.id,
  name: c.name,
  flag: c.flag,
  currency: c.currency,
  rate_micro: c.rateMicro,
  is_default: c.isDefault,
  hidden: c.hidden,
  sort_order: c.sortOrder,
  method_groups: groups.filter((g) => g.countryId === c.id).map((g) => groupOut(deps, g, methods)),
})

const MethodOut = z
  .object({
    id: z.number().int(),
    name: z.string(),
    title: z.string(),
    provider: z.string(),
    provider_ready: z.boolean().openapi({
      description: 'The provider has its keys (and is allowed in this mode): the method can be on',
    }),
    kind: z.string().nullable().openapi({
      description: 'YooKassa: payment_method_data.type; sandbox: the scenario it answers with',
    }),
    icon: z.string(),
    is_active: z.boolean(),
    fee_bp: z.number().int().openapi({ description: 'Percent fee in basis points (1 % = 100)' }),
    fix_fee: z.string(),
    min_amount: z.string(),
    is_secondary: z.boolean(),
    currencies: z.array(z.string()),
    sort_order: z.number().int().openapi({ description: 'Place within its group (then by id)' }),
  })
  .openapi('AdminPaymentMethod')
const GroupOut = z
  .object({
    id: z.number().int(),
    name: z.string(),
    short_name: z.string(),
    order: z.number().int(),
    methods: z.array(MethodOut),
  })
  .openapi('AdminPaymentMethodGroup')
const CountryOut = z
  .object({
    id: z.number().int(),
    name: z.string(),
    flag: z.string(),
    currency: z.string(),
    rate_micro: z.number().int().openapi({ description: 'Units of the currency per rouble × 1 000 000' }),
    is_default: z.boolean(),
    hidden: z.boolean().openapi({ description: 'Not offered to buyers; its methods take no payments' }),
    sort_order: z.number().int(),
    method_groups: z.array(GroupOut),
  })
  .openapi('AdminCountry')

const CountryPatch = z
  .object({
    name: Filled(100).optional(),
    rate_micro: Int(1, 2_000_000_000).optional(),
    sort_order: Int(-1000, 1000).optional(),
    hidden: z.boolean({ error: message('field_yes_no') }).optional(),
    is_default: z.literal(true, { error: message('field_country_default_unset') }).optional(),
  })
  .openapi('AdminCountryPatch')
const Currency = z
  .string({ error: message('field_currency_code_expected') })
  .trim()
  .toUpperCase()
  .max(3, message('field_currency_code'))
  .regex(/^[A-Z]{3}$/, message('field_currency_code'))
const IconPath = Text(300).regex(/^(|\/[A-Za-z0-9._/-]*|https:\/\/[^\s"'<>]+)$/, message('field_image_path'))
const CountryCreate = z
  .object({
    name: Filled(100, message('field_name_required')),
    currency: Currency,
    rate_micro: Int(1, 2_000_000_000).optional(),
    flag: IconPath.optional(),
    sort_order: Int(-1000, 1000).optional(),
    hidden: z.boolean({ error: message('field_yes_no') }).optional(),
    is_default: z.boolean({ error: message('field_yes_no') }).optional(),
  })
  .openapi('AdminCountryCreate')
const GroupCreate = z
  .object({
    name: Filled(100, message('field_name_required')),
    short_name: Text(40).optional(),
    order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminPaymentMethodGroupCreate')
const MethodName = z
  .string({ error: message('field_string') })
  .trim()
  .max(40, message('field_method_code'))
  .regex(/^[a-z0-9_]{2,40}$/, message('field_method_code'))
const Kind = Filled(40).nullable()
const MethodCreate = z
  .object({
    name: MethodName,
    title: Filled(100, message('field_name_required')),
    provider: z.enum(PROVIDER_NAMES, { error: message('field_provider_choose') }),
    kind: Kind.optional(),
    icon: IconPath.optional(),
    is_active: z.boolean().optional(),
    fee_bp: Int(0, 5000).optional(),
    fix_fee: Money.optional(),
    min_amount: Money.optional(),
    is_secondary: z.boolean().optional(),
    sort_order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminPaymentMethodCreate')
const GroupPatch = z
  .object({
    name: Filled(100).optional(),
    short_name: Filled(40).optional(),
    order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminPaymentMethodGroupPatch')
const MethodPatch = z
  .object({
    title: Filled(100).optional(),
    provider: z.enum(PROVIDER_NAMES, { error: message('field_provider_choose') }).optional(),
    kind: Kind.optional(),
    icon: IconPath.optional(),
    is_active: z.boolean().optional(),
    fee_bp: Int(0, 5000).optional(),
    fix_fee: Money.optional(),
    min_amount: Money.optional(),
    is_secondary: z.boolean().optional(),
    sort_order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminPaymentMethodPatch')

const all = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/payments/',
  summary: 'Countries with their method groups and methods, inactive ones too',
  responses: { 200: jsonContent(z.array(CountryOut)), ...errorResponses(403, 404) },
})
const patchRoute = <P extends string, S extends z.ZodTypeAny>(path: P, summary: string, schema: S) =>
  adminRoute('owner', {
    method: 'patch',
    path,
    summary,
    request: { params: IdParam, ...jsonBody(schema) },
    responses: { 200: jsonContent(z.object({ ok: z.literal(true) })), ...errorResponses(400, 403, 404) },
  })
const countryPatch = patchRoute(
  '/api/admin/payments/countries/{id}/',
  'Change a country (name, rate, order)',
  CountryPatch,
)
const groupPatch = patchRoute('/api/admin/payments/method_groups/{id}/', 'Change a method group', GroupPatch)
const ProviderOut = z
  .object({
    name: z.enum(PROVIDER_NAMES),
    ready: z.boolean().openapi({ description: 'Its keys are set (and it is allowed in this mode)' }),
    kinds: z.array(z.string()).openapi({ description: 'The kinds a method of it may name' }),
  })
  .openapi('AdminPaymentProvider')
const providers = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/payments/providers/',
  summary: 'The payment systems a method may use, and whether each can take payments now',
  responses: { 200: jsonContent(z.array(ProviderOut)), ...errorResponses(403, 404) },
})
const Created = z.object({ id: z.number().int() }).openapi('AdminCreated')
/** Adds a row under its parent `{id}`. */
const addRoute = <P extends string, S extends z.ZodTypeAny>(path: P, summary: string, schema: S) =>
  adminRoute('owner', {
    method: 'post',
    path,
    summary,
    request: { params: IdParam, ...jsonBody(schema) },
    responses: { 200: jsonContent(Created), ...errorResponses(400, 403, 404) },
  })
const countryCreate = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/payments/countries/',
  summary: 'Add a country (its currency and rate); hidden ones are not offered to buyers',
  request: jsonBody(CountryCreate),
  responses: { 200: jsonContent(Created), ...errorResponses(400, 403, 404) },
})
const groupCreate = addRoute(
  '/api/admin/payments/countries/{id}/method_groups/',
  'Add a method group to a country',
  GroupCreate,
)
const methodCreate = addRoute(
  '/api/admin/payments/method_groups/{id}/methods/',
  'Add a payment method to a group, choosing its payment system',
  MethodCreate,
)
const methodPatch = patchRoute(
  '/api/admin/payments/methods/{id}/',
  'Change a payment method (active, fees, minimum, place in its group)',
  MethodPatch,
)

/** Deletes the row `{id}`; 409 when payments name it (or what it holds). */
const deleteRoute = <P extends string>(path: P, summary: string, description: string) =>
  adminRoute('owner', {
    method: 'delete',
    path,
    summary,
    description,
    request: { params: IdParam },
    responses: { 200: jsonContent(z.object({ ok: z.literal(true) })), ...errorResponses(403, 404, 409) },
  })
const countryDelete = deleteRoute(
  '/api/admin/payments/countries/{id}/',
  'Delete a country with its method groups and methods',
  'Refused (409) for the default country and when a payment names one of its methods: hide it instead. ' +
    'Users who chose it fall back to the default country. Audited.',
)
const groupDelete = deleteRoute(
  '/api/admin/payments/method_groups/{id}/',
  'Delete a method group with its methods',
  'Refused (409) when a payment names one of its methods: switch them off instead. Audited.',
)
const methodDelete = deleteRoute(
  '/api/admin/payments/methods/{id}/',
  'Delete a payment method',
  'Refused (409) when a payment names it (switch it off instead), and for YooKassa’s own methods while ' +
    'its keys are set (start-up would make them again). Audited.',
)

export function registerAdminPayments(app: ApiApp) {
  app.openapi(all, async (c) => {
    const setup = await paymentSetup(c.var.deps.db)
    return c.json(
      setup.countries.map((x) => countryOut(c.var.deps, x, setup.groups, setup.methods)),
      200,
    )
  })

  app.openapi(providers, (c) => c.json(providerChoices(c.var.deps), 200))

  app.openapi(countryCreate, async (c) => {
    const b = c.req.valid('json') as z.infer<typeof CountryCreate>
    const id = await createCountry(c.var.deps.db, staffOf(c), {
      name: b.name,
      currency: b.currency,
      rateMicro: b.rate_micro,
      flag: b.flag,
      sortOrder: b.sort_order,
      hidden: b.hidden,
      isDefault: b.is_default,
    })
    return c.json({ id }, 200)
  })

  app.openapi(groupCreate, async (c) => {
    const b = c.req.valid('json') as z.infer<typeof GroupCreate>
    const id = await createPaymentGroup(c.var.deps.db, staffOf(c), c.req.valid('param').id, {
      name: b.name,
      shortName: b.short_name,
      order: b.order,
    })
    return c.json({ id }, 200)
  })

  app.openapi(methodCreate, async (c) => {
    const b = c.req.valid('json') as z.infer<typeof MethodCreate>
    const id = await createPaymentMethod(c.var.deps, staffOf(c), c.req.valid('param').id, {
      name: b.name,
      title: b.title,
      provider: b.provider,
      ...methodSettings(b),
    })
    return c.json({ id }, 200)
  })

  app.openapi(countryPatch, async (c) => {
    const b = c.req.valid('json') as z.infer<typeof CountryPatch>
    await patchCountry(c.var.deps.db, staffOf(c), c.req.valid('param').id, {
      name: b.name,
      rateMicro: b.rate_micro,
      sortOrder: b.sort_order,
      hidden: b.hidden,
      isDefault: b.is_default,
    })
    return c.json({ ok: true as const }, 200)
  })

  app.openapi(groupPatch, async (c) => {
    const b = c.req.valid('json') as z.infer<typeof GroupPatch>
    await patchPaymentGroup(c.var.deps.db, staffOf(c), c.req.valid('param').id, {
      name: b.name,
      shortName: b.short_name,
      order: b.order,
    })
    return c.json({ ok: true as const }, 200)
  })

  app.openapi(methodPatch, async (c) => {
    const b = c.req.valid('json') as z.infer<typeof MethodPatch>
    await patchPaymentMethod(c.var.deps, staffOf(c), c.req.valid('param').id, {
      provider: b.provider,
      ...methodSettings(b),
    })
    return c.json({ ok: true as const }, 200)
  })

  for (const [route, remove] of [
    [countryDelete, deleteCountry],
    [groupDelete, deletePaymentGroup],
    [methodDelete, deletePaymentMethod],
  ] as const)
    app.openapi(route, async (c) => {
      await remove(c.var.deps, staffOf(c), c.req.valid('param').id)
      return c.json({ ok: true as const }, 200)
    })
}

/** A method form's settings, as the service names them. */
const methodSettings = (b: z.infer<typeof MethodPatch>): MethodSettings => ({
  title: b.title,
  kind: b.kind,
  icon: b.icon,
  isActive: b.is_active,
  fee: b.fee_bp,
  fixFee: b.fix_fee,
  minAmount: b.min_amount,
  isSecondary: b.is_secondary,
  sortOrder: b.sort_order,
})
