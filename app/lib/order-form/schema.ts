// The order form's one validation schema, shared by the browser (before submitting) and the
// route action (before calling the API). Issue messages are i18n keys; params fill them in.
// Built on zod/mini so the browser chunk stays small.
import * as z from 'zod/mini'
import type { Game, GameKind } from '#app/lib/view-models/game'
import { FIELD, MESSAGE, qtyField } from './fields'
import { formatMoney, type Kopecks, parseMoney, toMoney } from '#app/lib/money'

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
const ID_MAX_LENGTH = 64
const EMAIL_MAX_LENGTH = 254

/** What the form of one game asks for; plain data, so the loader can send it to the browser. */
export interface OrderFormRules {
  kind: GameKind
  emailRequired: boolean
  /** A guest ticks the consent to personal data processing (152-ФЗ) before the email is sent. */
  consentRequired?: boolean
  /** Active products only. */
  products: Array<{ id: number; title: string; min: number; max: number }>
  server: { mode: 'none' } | { mode: 'enum'; ids: number[] } | { mode: 'custom' }
  /** A repeated Standoff order brings its avatar along (§5). */
  avatarSupplied: boolean
  steamAmount: { min: Kopecks; max: Kopecks } | null
}

export function rulesFor(
  game: Game,
  opts: { signedIn: boolean; avatarSupplied?: boolean; steamAmount?: { min: Kopecks; max: Kopecks } | null },
): OrderFormRules {
  return {
    kind: game.kind,
    // §5: required when the game does not require sign-in and the visitor is a guest.
    emailRequired: !game.isAuthRequired && !opts.signedIn,
    consentRequired: !game.isAuthRequired && !opts.signedIn,
    products: game.products
      .filter((p) => p.isActive)
      .map((p) => ({ id: p.id, title: p.title, min: p.minQuantity, max: p.maxQuantity })),
    server:
      game.kind !== 'SupplyGame' || !game.isServerNeeded
        ? { mode: 'none' }
        : game.isServerEnum
          ? { mode: 'enum', ids: game.servers.map((s) => s.id) }
          : { mode: 'custom' },
    avatarSupplied: opts.avatarSupplied ?? false,
    steamAmount: opts.steamAmount ?? null,
  }
}

export interface ProductLine {
  product_id: number
  quantity: number
}

export type OrderPayload =
  | { kind: 'PUBGGame'; body: { products: ProductLine[]; email?: string; personal_data_consent?: true } }
  | {
      kind: 'StandoffGame'
      body: {
        products: ProductLine[]
        email?: string
        game_account_id: string
        surplus: string
        personal_data_consent?: true
      }
      avatar: File | null
      repeatOrderId: string | null
    }
  | {
      kind: 'Steam'
      body: { amount: string; steam_account_id: string; email?: string; personal_data_consent?: true }
    }
  | {
      kind: 'SupplyGame'
      body: {
        products: ProductLine[]
        email?: string
        personal_data_consent?: true
        supply_channel_user_id: string
        supply_channel_server?: number
        supply_channel_server_custom_id?: string
      }
    }

export interface FieldError {
  /** i18n key of the message… */
  key: string
  params?: Record<string, string | number>
  /** …or a literal text (the API's own message). */
  text?: string
}
export type FieldErrors = Record<string, FieldError>

export type ValidationResult = { ok: true; payload: OrderPayload } | { ok: false; errors: FieldErrors }

// ---------------------------------------------------------------- field schemas

/** A text input: absent counts as empty; surrounding spaces are dropped. */
const text = z.pipe(
  z.optional(z.string()),
  z.transform((v) => (v ?? '').trim()),
)

const requiredId = z.pipe(
  text,
  z.string().check(z.minLength(1, MESSAGE.userIdMissing), z.maxLength(ID_MAX_LENGTH, MESSAGE.userIdTooLong)),
)

function emailField(required: boolean) {
  return z.pipe(
    text,
    z.string().check(
      z.superRefine((v, ctx) => {
        if (v === '') {
          if (required) ctx.addIssue({ code: 'custom', message: MESSAGE.mailMissing, input: v })
        } else if (v.length > EMAIL_MAX_LENGTH || !z.regexes.email.test(v)) {
          ctx.addIssue({ code: 'custom', message: MESSAGE.mailInvalid, input: v })
        }
      }),
    ),
  )
}

/** The consent box: a ticked checkbox posts "on". */
const consentField = z.pipe(
  text,
  z.string().check(z.refine((v) => v === 'on' || v === 'true', MESSAGE.consentMissing)),
)

function quantityField(p: OrderFormRules['products'][number]) {
  return z.pipe(
    text,
    z.string().check(
      z.superRefine((v, ctx) => {
        if (v === '' || v === '0') return
        const params = { min: p.min, max: p.max, title: p.title }
        if (!/^\d{1,6}$/.test(v)) {
          ctx.addIssue({ code: 'custom', message: MESSAGE.quantityInvalid, params, input: v })
          return
        }
        const n = Number(v)
        if (n !== 0 && (n < p.min || n > p.max)) {
          ctx.addIssue({ code: 'custom', message: MESSAGE.quantityRange, params, input: v })
        }
      }),
    ),
  )
}

/** A picked image file (an empty file input sends a nameless, empty File). */
function isFile(v: unknown): v is File {
  return typeof File !== 'undefined' && v instanceof File && v.size > 0
}

function avatarField(supplied: boolean) {
  return z.pipe(
    z.optional(z.unknown()),
    z.unknown().check(
      z.superRefine((v, ctx) => {
        if (!isFile(v)) {
          if (!supplied) ctx.addIssue({ code: 'custom', message: MESSAGE.avatarMissing, input: v })
          return
        }
        if (!v.type.startsWith('image/')) {
          ctx.addIssue({ code: 'custom', message: MESSAGE.avatarNotImage, input: v })
        } else if (v.size > AVATAR_MAX_BYTES) {
          ctx.addIssue({
            code: 'custom',
            message: MESSAGE.avatarTooLarge,
            params: { mb: AVATAR_MAX_BYTES / 1024 / 1024 },
            input: v,
          })
        }
      }),
    ),
  )
}

const surplusField = z.pipe(text, z.string().check(z.regex(/^0\.(?:[01]\d|2[0-3])$/, MESSAGE.surplusInvalid)))

function amountField(bounds: OrderFormRules['steamAmount']) {
  return z.pipe(
    text,
    z.string().check(
      z.superRefine((v, ctx) => {
        const amount = parseMoney(v)
        if (amount === null || amount <= 0) {
          ctx.addIssue({ code: 'custom', message: MESSAGE.amountInvalid, input: v })
        } else if (bounds && (amount < bounds.min || amount > bounds.max)) {
          ctx.addIssue({
            code: 'custom',
            message: MESSAGE.amountRange,
            params: { min: formatMoney(bounds.min), max: formatMoney(bounds.max) },
            input: v,
          })
        }
      }),
    ),
  )
}

function serverFields(server: OrderFormRules['server']) {
  if (server.mode === 'enum') {
    const ids = server.ids.map(String)
    return {
      [FIELD.serverId]: z.pipe(
        text,
        z.string().check(z.refine((v) => ids.includes(v), { message: MESSAGE.serverMissing })),
      ),
    }
  }
  if (server.mode === 'custom') {
    return {
      [FIELD.serverCustomId]: z.pipe(
        text,
        z
          .string()
          .check(z.minLength(1, MESSAGE.serverMissing), z.maxLength(ID_MAX_LENGTH, MESSAGE.userIdTooLong)),
      ),
    }
  }
  return {}
}

// ---------------------------------------------------------------- the schema

/** The schema of one game's order form (the input is the form's entries). */
export function orderFormSchema(rules: OrderFormRules) {
  const shape: Record<string, z.ZodMiniType> = { [FIELD.email]: emailField(rules.emailRequired) }
  if (rules.consentRequired) shape[FIELD.consent] = consentField
  if (rules.kind !== 'Steam') {
    for (const p of rules.products) shape[qtyField(p.id)] = quantityField(p)
  }
  switch (rules.kind) {
    case 'SupplyGame':
      shape[FIELD.userId] = requiredId
      Object.assign(shape, serverFields(rules.server))
      break
    case 'StandoffGame':
      shape[FIELD.userId] = requiredId
      shape[FIELD.avatar] = avatarField(rules.avatarSupplied)
      shape[FIELD.surplus] = surplusField
      shape[FIELD.repeatOrderId] = text
      break
    case 'Steam':
      shape[FIELD.steamAccountId] = requiredId
      shape[FIELD.amount] = amountField(rules.steamAmount)
      break
    case 'PUBGGame':
      break
  }
  return z.object(shape).check(
    z.superRefine((values, ctx) => {
      if (rules.kind === 'Steam') return
      // §5: only lines above zero are sent; an order needs at least one.
      const any = rules.products.some((p) => Number(values[qtyField(p.id)] || 0) > 0)
      if (!any)
        ctx.addIssue({ code: 'custom', message: MESSAGE.emptyCart, path: [FIELD.products], input: values })
    }),
  )
}

/** Reads form entries (FormData or a plain record) into what the schema takes. */
export function formEntries(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, value] of form.entries()) out[name] = value
  return out
}

function linesOf(rules: OrderFormRules, values: Record<string, unknown>): ProductLine[] {
  return rules.products
    .map((p) => ({ product_id: p.id, quantity: Number(values[qtyField(p.id)] || 0) }))
    .filter((l) => l.quantity > 0)
}

/** Validates the form; on success, the API request the form stands for. */
export function validateOrderForm(rules: OrderFormRules, input: Record<string, unknown>): ValidationResult {
  const parsed = orderFormSchema(rules).safeParse(input)
  if (!parsed.success) {
    const errors: FieldErrors = {}
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? FIELD.products)
      if (errors[field]) continue
      const params = (issue as { params?: Record<string, string | number> }).params
      errors[field] = params ? { key: issue.message, params } : { key: issue.message }
    }
    return { ok: false, errors }
  }
  const v = parsed.data as Record<string, unknown>
  const str = (name: string) => String(v[name] ?? '')
  const ticked = str(FIELD.consent) === 'on' || str(FIELD.consent) === 'true'
  const email = {
    ...(str(FIELD.email) ? { email: str(FIELD.email) } : {}),
    ...(ticked ? { personal_data_consent: true as const } : {}),
  }
  switch (rules.kind) {
    case 'PUBGGame':
      return { ok: true, payload: { kind: 'PUBGGame', body: { products: linesOf(rules, v), ...email } } }
    case 'StandoffGame': {
      const avatar = v[FIELD.avatar]
      return {
        ok: true,
        payload: {
          kind: 'StandoffGame',
          body: {
            products: linesOf(rules, v),
            ...email,
            game_account_id: str(FIELD.userId),
            surplus: str(FIELD.surplus),
          },
          avatar: isFile(avatar) ? avatar : null,
          repeatOrderId: str(FIELD.repeatOrderId) || null,
        },
      }
    }
    case 'Steam':
      return {
        ok: true,
        payload: {
          kind: 'Steam',
          body: {
            amount: toMoney(parseMoney(str(FIELD.amount)) ?? 0),
            steam_account_id: str(FIELD.steamAccountId),
            ...email,
          },
        },
      }
    case 'SupplyGame':
      return {
        ok: true,
        payload: {
          kind: 'SupplyGame',
          body: {
            products: linesOf(rules, v),
            ...email,
            supply_channel_user_id: str(FIELD.userId),
            ...(rules.server.mode === 'enum' ? { supply_channel_server: Number(str(FIELD.serverId)) } : {}),
            ...(rules.server.mode === 'custom'
              ? { supply_channel_server_custom_id: str(FIELD.serverCustomId) }
              : {}),
          },
        },
      }
  }
}

/** The three missing-field flags of §5. */
export function missingFlags(errors: FieldErrors) {
  const has = (key: string) => Object.values(errors).some((e) => e.key === key)
  return {
    mailIsMissing: has(MESSAGE.mailMissing),
    userIdIsMissing: has(MESSAGE.userIdMissing),
    avatarIsMissing: has(MESSAGE.avatarMissing),
  }
}
