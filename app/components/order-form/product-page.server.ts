// Loader and action of /products/{id}: the game page and its order form (§2, §5, §7).
import { randomInt, randomUUID } from 'node:crypto'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { ApiResponseError, type ApiSession, apiFor, must } from '#app/lib/api/client.server'
import { multipart } from '#app/lib/api/multipart'
import { getServerT } from '#app/i18n/i18n.server'
import { markNoStore, markShared, newFormKey } from '#app/lib/shared-page.server'
import { invalidRoute } from '#app/lib/http-errors.server'
import { loadRepeatOrder, type RepeatOrder } from '#app/lib/repeat-order.server'
import {
  hasRememberCookie,
  type RememberedPlayer,
  rememberCookies,
  rememberedFor,
} from '#app/lib/remembered-buyer.server'
import { FIELD, qtyField } from '#app/lib/order-form/fields'
import { parseMoney } from '#app/lib/money'
import {
  type FieldErrors,
  formEntries,
  type OrderFormRules,
  type OrderPayload,
  rulesFor,
  validateOrderForm,
} from '#app/lib/order-form/schema'
import { checkPlayer, type PlayerQuery, playerKey } from '#app/lib/player-check.server'
import { htmlToText, sanitizeHtml } from '#app/lib/sanitize-html'
import { activeProducts, type Game, toGame } from '#app/lib/view-models/game'
import { percentToBp, type StandoffSettings, type SteamSettings } from './settings'

export interface FaqItem {
  id: number
  question: string
  answer: string
}

/** Values the form starts with (last order, repeated order, or what was just posted). */
export interface Prefill {
  email?: string
  userId?: string
  serverId?: string
  serverCustomId?: string
  steamAccountId?: string
  amount?: string
  /** product id → quantity */
  quantities?: Record<string, number>
  avatarUrl?: string
  repeatOrderId?: string
  /** A repeat: the payment method the repeated order was last paid with (issue 50). */
  repeatMethod?: string
}

/** A payment method's name as the shop's methods are named; anything else is not carried. */
const METHOD_NAME = /^[A-Za-z0-9_.-]{1,64}$/

export interface ActionResult {
  errors: FieldErrors
  formError: string | null
  values: Record<string, string>
  /** Keeps the key of an order that was created but not finished (avatar upload failed). */
  idempotencyKey: string | null
  /** The confirmation step before the order: who the id belongs to, or that nobody could say. */
  player?: PlayerConfirmation | null
}

export interface PlayerConfirmation {
  state: 'found' | 'unavailable'
  nickname: string | null
  message: string | null
  /** What was checked (id and server); a changed id needs a new check. */
  key: string
  /** Standoff: the avatar posted with the first submit, as a data: URL, so the second needs no file. */
  avatarData: string | null
  /**
   * The step's texts, made here: the page's messages carry the check's texts only when its
   * (cached) catalogue read said the game checks players, and the check may have been switched on
   * since (review finding L6); the step would show raw keys.
   */
  texts: PlayerConfirmTexts
}

export interface PlayerConfirmTexts {
  heading: string
  /** «Игрок: … — всё верно?» or the check's «не удалось проверить». */
  question: string
  changeHint: string
  confirm: string
}

function gameIdParam(request: Request, raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) invalidRoute(request)
  return Number(raw)
}

/** Turns a failed API answer into the error page with its status (§2, §8). */
function rethrowAsPage(error: unknown, api: ApiSession): never {
  if (error instanceof ApiResponseError) {
    throw data({ message: error.message }, { status: error.status, headers: api.headers })
  }
  throw error
}

async function loadGame(api: ApiSession, id: number): Promise<Game> {
  return toGame(await must(api.client.GET('/api/games/{id}/', { params: { path: { id } } })))
}

/** The game's FAQ, or null when it could not be read. */
async function loadFaq(api: ApiSession, id: number): Promise<FaqItem[] | null> {
  // the FAQ is a nicety: a missing or failing FAQ never breaks the game page
  try {
    const { data: items, response } = await api.client.GET('/api/faq/{game_pk}/', {
      params: { path: { game_pk: id } },
    })
    if (!response.ok || !Array.isArray(items)) return null
    return items.map((f) => ({ id: f.id, question: f.text, answer: f.answer }))
  } catch {
    return null
  }
}

async function loadStandoffSettings(api: ApiSession): Promise<StandoffSettings | null> {
  const { data: s } = await api.client.GET('/api/orders/standoff/settings/')
  if (!s) return null
  return {
    skinName: s.skin_name,
    skinPicture: s.skin_picture,
    marketFeeBp: percentToBp(s.market_fee),
    isSurplusEnabled: s.is_surplus_enabled,
  }
}

async function loadSteamSettings(api: ApiSession): Promise<SteamSettings | null> {
  const { data: s } = await api.client.GET('/api/orders/steam/settings/')
  if (!s) return null
  return {
    commissionBp: percentToBp(s.commission),
    minAmount: s.min_amount != null ? parseMoney(String(s.min_amount)) : null,
    maxAmount: s.max_amount != null ? parseMoney(String(s.max_amount)) : null,
  }
}

/** The signed-in buyer's last order data for this game kind (§4: prefilled). */
async function loadLastOrder(api: ApiSession, game: Game): Promise<Prefill> {
  try {
    if (game.kind === 'StandoffGame') {
      const { data: d } = await api.client.GET('/api/orders/standoff/last_order_data/')
      return d ? { userId: d.game_account_id ?? undefined, email: d.email ?? undefined } : {}
    }
    if (game.kind === 'Steam') {
      const { data: d } = await api.client.GET('/api/orders/steam/last_order_data/')
      return d ? { steamAccountId: d.steam_account_id ?? undefined, email: d.email ?? undefined } : {}
    }
    if (game.kind === 'SupplyGame') {
      const { data: d } = await api.client.GET('/api/orders/supply_channel/last_order_data/{game_id}/', {
        params: { path: { game_id: game.id } },
      })
      if (!d) return {}
      return {
        userId: d.moogold_user_id ?? undefined,
        email: d.email ?? undefined,
        ...(d.moogold_server != null
          ? game.isServerEnum
            ? { serverId: String(d.moogold_server) }
            : { serverCustomId: String(d.moogold_server) }
          : {}),
      }
    }
  } catch {
    // prefill is a convenience
  }
  return {}
}

function rulesOf(game: Game, signedIn: boolean, steam: SteamSettings | null, avatarSupplied = false) {
  return rulesFor(game, {
    signedIn,
    avatarSupplied,
    steamAmount:
      steam && steam.minAmount !== null && steam.maxAmount !== null
        ? { min: steam.minAmount, max: steam.maxAmount }
        : null,
  })
}

/** Surplus of a Standoff order: 0.00–0.23 in steps of 0.01, set when the form starts (§4, §9). */
function newSurplus(settings: StandoffSettings | null): string {
  if (settings && !settings.isSurplusEnabled) return '0.00'
  return `0.${String(randomInt(0, 24)).padStart(2, '0')}`
}

/** A guest's form from what this device remembers (issue 50): the email and this game's ids. */
function rememberedPrefill(request: Request, game: Game): Prefill {
  const r = rememberedFor(request, game.id)
  return {
    email: r.email,
    userId: game.kind === 'StandoffGame' || game.kind === 'SupplyGame' ? r.userId : undefined,
    serverId: game.kind === 'SupplyGame' && game.isServerEnum ? r.serverId : undefined,
    serverCustomId: game.kind === 'SupplyGame' && !game.isServerEnum ? r.serverCustomId : undefined,
    steamAccountId: game.kind === 'Steam' ? r.steamAccountId : undefined,
  }
}

/** The player fields of a created order, to remember on this device (issue 50). */
function playerToRemember(game: Game, form: FormData): RememberedPlayer {
  const text = (name: string) => String(form.get(name) ?? '').trim() || undefined
  if (game.kind === 'Steam') return { steamAccountId: text(FIELD.steamAccountId) }
  if (game.kind === 'StandoffGame') return { userId: text(FIELD.userId) }
  if (game.kind === 'SupplyGame')
    return {
      userId: text(FIELD.userId),
      serverId: game.isServerNeeded && game.isServerEnum ? text(FIELD.serverId) : undefined,
      serverCustomId: game.isServerNeeded && !game.isServerEnum ? text(FIELD.serverCustomId) : undefined,
    }
  return {}
}

/** The method the repeated order was last paid with, or undefined (issue 50: a repeat reuses it). */
async function lastMethodOf(api: ApiSession, orderId: string): Promise<string | undefined> {
  try {
    const { data: p } = await api.client.GET('/api/orders/payment_data/{id}/', {
      params: { path: { id: orderId } },
    })
    const name = (p as { method_name?: unknown } | undefined)?.method_name
    return typeof name === 'string' && METHOD_NAME.test(name) ? name : undefined
  } catch {
    return undefined
  }
}

/** §4: a repeated order preloads its quantities and account data (and, for Standoff, its avatar). */
function repeatPrefill(order: RepeatOrder, game: Game): Prefill {
  const text = (v: string | number | null) => (v === null || v === '' ? undefined : String(v))
  return {
    quantities: order.quantities,
    email: text(order.email),
    userId: text(game.kind === 'StandoffGame' ? order.gameAccountId : order.moogoldUserId),
    serverId: game.isServerEnum ? text(order.moogoldServer) : undefined,
    serverCustomId: game.isServerEnum ? undefined : text(order.moogoldServerCustomId),
    steamAccountId: text(order.steamAccountId),
    amount: text(order.amount),
    avatarUrl: text(order.gameAvatar),
    repeatOrderId: order.orderId,
  }
}

export async function productLoader({ request, params, context }: LoaderFunctionArgs) {
  const id = gameIdParam(request, params.id)
  const repeatId = new URL(request.url).searchParams.get('repeat')
  const api = apiFor(request, context)
  const signedIn = api.signedIn
  // the game and its FAQ together; what the kind needs as soon as the kind is known
  const [game, faq] = await Promise.all([
    loadGame(api, id).catch((e) => rethrowAsPage(e, api)),
    loadFaq(api, id),
  ])
  // a guest's form starts from what this device remembers; a signed-in buyer's from the account
  const remembered = !signedIn && !repeatId ? rememberedPrefill(request, game) : ({} as Prefill)
  const [standoff, steam, lastOrder, repeat] = await Promise.all([
    game.kind === 'StandoffGame' ? loadStandoffSettings(api).catch(() => null) : null,
    game.kind === 'Steam' ? loadSteamSettings(api).catch(() => null) : null,
    signedIn && !repeatId ? loadLastOrder(api, game) : remembered,
    repeatId ? loadRepeatOrder(api, repeatId) : null,
  ])
  const repeatedOrder = repeat && repeat.gameId === game.id ? repeat : null
  const repeated = repeatedOrder
    ? { ...repeatPrefill(repeatedOrder, game), repeatMethod: await lastMethodOf(api, repeatedOrder.orderId) }
    : null
  // a Standoff repeat reuses the old avatar only when that order has one
  const avatarSupplied = game.kind === 'StandoffGame' && Boolean(repeated?.avatarUrl)
  const prefill: Prefill = repeated
    ? {
        ...repeated,
        repeatOrderId: game.kind === 'StandoffGame' && !avatarSupplied ? undefined : repeated.repeatOrderId,
      }
    : lastOrder
  const rules = rulesOf(game, signedIn, steam, avatarSupplied)
  // the same page for every signed-out visitor, except Standoff's (its surplus is per form) and a
  // page made without a part that failed to load (the cache would keep it so)
  const whole = faq !== null && (game.kind !== 'Steam' || steam !== null)
  // a device that remembers a guest gets its own page (the cache keeps no page with a cookie anyway)
  const rememberedHere = !signedIn && hasRememberCookie(request)
  if (game.kind !== 'StandoffGame' && !repeatId && whole && !rememberedHere) markShared(api)
  if (rememberedHere) markNoStore(api)
  return data(
    {
      // the description is owner-written HTML (the back-office says so): sanitized markup for the
      // page, its text for the meta description and structured data
      game: { ...game, detailDescription: htmlToText(game.detailDescription) },
      descriptionHtml: sanitizeHtml(game.detailDescription),
      faq: faq ?? [],
      standoff,
      steam,
      prefill,
      /** `?repeat=` named an order this visitor cannot repeat here. */
      repeatMissing: Boolean(repeatId) && !repeated,
      repeating: Boolean(repeated),
      /** A guest on a device that remembers them: the form offers to forget it. */
      rememberedHere,
      rules,
      signedIn,
      unavailable: game.kind !== 'Steam' && activeProducts(game).length === 0,
      // a new key per rendered form: a double POST of the same form makes one order
      idempotencyKey: newFormKey(context),
      surplus: game.kind === 'StandoffGame' ? newSurplus(standoff) : '0.00',
      notifications: api.notifications,
    },
    { headers: api.headers },
  )
}

export type ProductLoaderData = Awaited<ReturnType<typeof productLoader>>['data']

/** What was posted, as text, so a re-rendered form (without JavaScript) keeps it. */
function postedValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string' && name !== FIELD.idempotencyKey && name !== FIELD.avatarData)
      out[name] = value.slice(0, 300)
  }
  return out
}

/** Sends the validated order to the API; the new order's id. */
async function createOrder(api: ApiSession, game: Game, payload: OrderPayload, key: string): Promise<string> {
  const headers = { 'Idempotency-Key': key }
  switch (payload.kind) {
    case 'PUBGGame':
      return (await must(api.client.POST('/api/orders/pubg/', { body: payload.body, headers }))).id
    case 'SupplyGame':
      return (await must(api.client.POST('/api/orders/supply_channel/', { body: payload.body, headers }))).id
    case 'Steam':
      return (
        await must(
          api.client.POST('/api/orders/steam/', { body: { ...payload.body, game: game.id }, headers }),
        )
      ).id
    case 'StandoffGame': {
      const order = await must(api.client.POST('/api/orders/standoff/', { body: payload.body, headers }))
      await must(
        api.client.POST('/api/orders/standoff/avatar/{id}/', {
          params: { path: { id: order.id } },
          // multipart, as the upload call is (§7); the API checks the file itself
          body: {
            game_avatar: payload.avatar ?? undefined,
            history_order_id: payload.repeatOrderId || undefined,
          },
          bodySerializer: multipart,
        }),
      )
      return order.id
    }
  }
}

export async function productAction({ request, params, context }: ActionFunctionArgs) {
  const id = gameIdParam(request, params.id)
  const api = apiFor(request, context)
  const form = await request.formData()
  const values = postedValues(form)
  const key = String(form.get(FIELD.idempotencyKey) ?? '') || randomUUID()
  const fail = (status: number, result: Partial<ActionResult>) =>
    data<ActionResult>(
      { errors: {}, formError: null, values, idempotencyKey: null, ...result },
      { status, headers: api.headers },
    )

  // prices, bounds and kinds come from the API again, never from the page
  const game = await loadGame(api, id).catch((e) => rethrowAsPage(e, api))
  const steam = game.kind === 'Steam' ? await loadSteamSettings(api).catch(() => null) : null
  if (game.isAuthRequired && !api.signedIn) {
    const { t } = await getServerT(request)
    return fail(403, { formError: t('top_up_balance.errors.sign_in_required') })
  }
  const repeatOrderId = String(form.get(FIELD.repeatOrderId) ?? '')
  const rules: OrderFormRules = rulesOf(game, api.signedIn, steam, repeatOrderId !== '')
  if (game.kind === 'StandoffGame') restoreAvatar(form)
  const result = validateOrderForm(rules, formEntries(form))
  if (!result.ok) return fail(400, { errors: result.errors })

  // the player check: a confirmation step first, unless this player was confirmed (or found live)
  if (game.playerCheck && game.kind !== 'PUBGGame') {
    const query = playerQueryOf(game, form)
    const checked = playerKey(query)
    if (!form.getAll(FIELD.playerChecked).includes(checked)) {
      const answer = await checkPlayer(api, game.id, query)
      const idField = game.kind === 'Steam' ? FIELD.steamAccountId : FIELD.userId
      if (answer.state === 'refused')
        return fail(400, { errors: { [idField]: { key: '', text: answer.message } } })
      if (answer.state === 'found' || answer.state === 'unavailable') {
        const avatar = result.payload.kind === 'StandoffGame' ? result.payload.avatar : null
        const { t } = await getServerT(request)
        const found = answer.state === 'found'
        return data<ActionResult>(
          {
            errors: {},
            formError: null,
            values,
            idempotencyKey: key,
            player: {
              state: answer.state,
              nickname: answer.state === 'found' ? answer.nickname : null,
              message: answer.state === 'unavailable' ? answer.message : null,
              key: checked,
              avatarData: avatar && avatar.size > 0 ? await dataUrlOf(avatar) : null,
              texts: {
                heading: t('top_up_balance.player.confirm_heading'),
                question: found
                  ? t('top_up_balance.player.confirm_question', { nickname: answer.nickname })
                  : t('top_up_balance.player.unavailable'),
                changeHint: t('top_up_balance.player.change_hint'),
                confirm: t(
                  found ? 'top_up_balance.player.confirm' : 'top_up_balance.player.unavailable_confirm',
                ),
              },
            },
          },
          { headers: api.headers },
        )
      }
    }
  }

  try {
    const orderId = await createOrder(api, game, result.payload, key)
    const headers = new Headers(api.headers)
    // a guest's email and player ids are remembered on this device for the next order (issue 50)
    if (!api.signedIn)
      for (const set of rememberCookies(request, {
        gameId: game.id,
        email: String(form.get(FIELD.email) ?? ''),
        player: playerToRemember(game, form),
      }))
        headers.append('set-cookie', set)
    // a repeat lands on its pay page with the repeated order's method checked, at the methods
    // (a repeat posts the field, empty when the old order has no payment)
    const method = form.get(FIELD.repeatMethod)
    const target =
      typeof method !== 'string'
        ? `/orders/${orderId}/pay`
        : METHOD_NAME.test(method)
          ? `/orders/${orderId}/pay?method=${encodeURIComponent(method)}#methods-heading`
          : `/orders/${orderId}/pay#methods-heading`
    return redirect(target, { headers })
  } catch (error) {
    if (!(error instanceof ApiResponseError)) throw error
    // §7: the API's message becomes the form's error text; field errors go next to their fields
    return fail(error.status >= 400 && error.status < 600 ? error.status : 400, {
      formError: error.message,
      errors: onItsPack(apiFieldErrors(error.body), game, values),
      // an order made before the avatar upload failed: the same key finds it again
      idempotencyKey: game.kind === 'StandoffGame' ? key : null,
    })
  }
}

/**
 * A refusal about one pack (too many, none left: the API's `products` error names it «title»)
 * belongs to that pack's quantity, so focus lands on it and not on the first pack (issue 50): the
 * only pack chosen, else the one chosen pack the message names. Otherwise it stays the group's.
 */
function onItsPack(errors: FieldErrors, game: Game, values: Record<string, string>): FieldErrors {
  const error = errors[FIELD.products]
  if (!error) return errors
  const chosen = activeProducts(game).filter((p) => Number(values[qtyField(p.id)] ?? 0) > 0)
  const named =
    chosen.length === 1 ? chosen : chosen.filter((p) => (error.text ?? '').includes(`«${p.title}»`))
  if (named.length !== 1) return errors
  const { [FIELD.products]: _, ...rest } = errors
  return { ...rest, [qtyField(named[0]!.id)]: error }
}

/** The player a posted form names: the id field of its kind and, for supply games, the server. */
function playerQueryOf(game: Game, form: FormData): PlayerQuery {
  const text = (name: string) => String(form.get(name) ?? '')
  if (game.kind === 'Steam') return { userId: text(FIELD.steamAccountId) }
  if (game.kind === 'SupplyGame')
    return {
      userId: text(FIELD.userId),
      serverId: game.isServerNeeded && game.isServerEnum ? text(FIELD.serverId) : '',
      serverCustomId: game.isServerNeeded && !game.isServerEnum ? text(FIELD.serverCustomId) : '',
    }
  return { userId: text(FIELD.userId) }
}

const AVATAR_DATA = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/]+={0,2})$/
/** Larger than any avatar the form accepts; the form's own rule gives the message. */
const AVATAR_DATA_MAX = 8 * 1024 * 1024

async function dataUrlOf(file: File): Promise<string> {
  const type = /^image\/(?:png|jpeg|webp|gif)$/.test(file.type) ? file.type : 'image/png'
  return `data:${type};base64,${Buffer.from(await file.arrayBuffer()).toString('base64')}`
}

/** The confirmation step's second submit carries the avatar as text: make it a file again. */
function restoreAvatar(form: FormData) {
  const file = form.get(FIELD.avatar)
  if (file instanceof File && file.size > 0) return
  const m = AVATAR_DATA.exec(String(form.get(FIELD.avatarData) ?? ''))
  if (!m || m[2]!.length > AVATAR_DATA_MAX) return
  const type = m[1]!
  form.set(FIELD.avatar, new File([Buffer.from(m[2]!, 'base64')], `avatar.${type.slice(6)}`, { type }))
}

const API_FIELD: Record<string, string> = {
  email: FIELD.email,
  game_account_id: FIELD.userId,
  supply_channel_user_id: FIELD.userId,
  supply_channel_server: FIELD.serverId,
  supply_channel_server_custom_id: FIELD.serverCustomId,
  steam_account_id: FIELD.steamAccountId,
  amount: FIELD.amount,
  game_avatar: FIELD.avatar,
  personal_data_consent: FIELD.consent,
}

/** The API's `fields` map (`{field: [messages]}`) onto the form's inputs, as literal texts. */
function apiFieldErrors(body: unknown): FieldErrors {
  const fields = (body as { fields?: Record<string, unknown> } | null)?.fields
  const out: FieldErrors = {}
  if (!fields || typeof fields !== 'object') return out
  for (const [name, messages] of Object.entries(fields)) {
    const first = Array.isArray(messages) ? messages.find((m) => typeof m === 'string') : null
    const field = API_FIELD[name] ?? (name.startsWith('products') ? FIELD.products : null)
    if (first && field && !out[field]) out[field] = { key: '', text: first }
  }
  return out
}
