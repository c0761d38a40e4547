// Changing an unpaid order from its payment page (§7's update calls): the products and their
// quantities (or a Steam amount), and where it is delivered (email, account or player id, server).
// Plain form posts: the same code serves the page with and without JavaScript.
import { data } from '@remix-run/node'
import type { TFunction } from '#app/i18n/translate'
import { ApiResponseError, type ApiSession, must } from '#app/lib/api/client.server'
import { toMoney } from '#app/lib/money'
import { redirectWithToast } from '#app/lib/toast.server'
import { activeProducts, toGame } from '#app/lib/view-models/game'
import { money, type Order, type OrderKind, toOrder } from '#app/lib/view-models/order'
import type { EditActionData, EditFieldName, OrderEditData } from './types'

/** The URL segment of the update calls for each order kind. */
const SEGMENT = {
  PUBGOrder: 'pubg',
  StandoffOrder: 'standoff',
  SteamOrder: 'steam',
  MooGoldOrder: 'supply_channel',
  RokkyOrder: 'rokky',
} as const satisfies Record<OrderKind, string>

/** Kinds whose products the shopper picks (a gift order has one gift, Steam an amount). */
const LINE_KINDS: readonly OrderKind[] = ['PUBGOrder', 'StandoffOrder', 'MooGoldOrder']

/** What the editor needs besides the order: the game's products now on sale and its servers. */
export async function loadOrderEdit(api: ApiSession, order: Order): Promise<OrderEditData | null> {
  if (!order.isPaymentActive) return null
  if (!LINE_KINDS.includes(order.kind) || !order.game) {
    return { products: [], servers: [], serverNeeded: false, serverEnum: false }
  }
  const res = await api.client.GET('/api/games/{id}/', { params: { path: { id: order.game.id } } })
  // the game is gone from the catalogue: the order can still change where it goes
  if (!res.data) return { products: [], servers: [], serverNeeded: false, serverEnum: false }
  const game = toGame(res.data)
  return {
    products: activeProducts(game).map((p) => ({
      id: p.id,
      title: p.title,
      unitPrice: p.unitPrice,
      minQuantity: p.minQuantity,
      maxQuantity: p.maxQuantity,
    })),
    servers: game.servers,
    serverNeeded: game.isServerNeeded,
    serverEnum: game.isServerEnum,
  }
}

function fieldErrors(body: unknown): Partial<Record<EditFieldName, string>> {
  const fields = (body as { fields?: Record<string, unknown> } | null)?.fields ?? {}
  const out: Partial<Record<EditFieldName, string>> = {}
  for (const [name, list] of Object.entries(fields)) {
    if (Array.isArray(list) && typeof list[0] === 'string') out[name as EditFieldName] = list[0]
  }
  return out
}

/** `intent` edit_lines / edit_amount / edit_delivery of the payment page's form posts. */
export async function handleEditAction(
  api: ApiSession,
  t: TFunction,
  request: Request,
  orderId: string,
  intent: 'edit_lines' | 'edit_amount' | 'edit_delivery',
  form: FormData,
) {
  const values: Record<string, string> = {}
  for (const [k, v] of form.entries()) if (typeof v === 'string' && k !== 'intent') values[k] = v.trim()
  const fail = (status: number, error: string | null, fields: EditActionData['fieldErrors'] = {}) =>
    data<EditActionData>({ intent, error, fieldErrors: fields, values }, { status, headers: api.headers })
  const path = { params: { path: { id: orderId } } }
  try {
    const order = toOrder(await must(api.client.GET('/api/orders/{id}/', path)))
    const segment = SEGMENT[order.kind]
    if (!order.isPaymentActive) return fail(409, t('payment.edit.not_editable'))

    if (intent === 'edit_lines') {
      if (segment !== 'pubg' && segment !== 'standoff' && segment !== 'supply_channel') {
        return fail(400, t('errors.generic_error'))
      }
      const products: Array<{ id: number; quantity: number }> = []
      for (const [name, raw] of Object.entries(values)) {
        const id = /^qty_(\d{1,9})$/.exec(name)?.[1]
        if (!id) continue
        if (!/^\d{1,4}$/.test(raw || '0')) {
          return fail(400, null, { [`qty_${id}`]: t('payment.edit.bad_quantity') })
        }
        const quantity = Number(raw || '0')
        if (quantity > 0) products.push({ id: Number(id), quantity })
      }
      if (products.length === 0) return fail(400, t('payment.edit.choose_product'))
      const body = { products }
      await must(
        segment === 'pubg'
          ? api.client.POST('/api/orders/pubg/{id}/update/', { ...path, body })
          : segment === 'standoff'
            ? api.client.POST('/api/orders/standoff/{id}/update/', { ...path, body })
            : api.client.POST('/api/orders/supply_channel/{id}/update/', { ...path, body }),
      )
    } else if (intent === 'edit_amount') {
      if (segment !== 'steam') return fail(400, t('errors.generic_error'))
      const amount = values.amount ?? ''
      const kopecks = /^\d{1,9}([.,]\d{1,2})?$/.test(amount) ? money(amount.replace(',', '.')) : null
      if (kopecks === null) return fail(400, null, { amount: t('payment.edit.bad_amount') })
      await must(
        api.client.POST('/api/orders/steam/{id}/update/', { ...path, body: { amount: toMoney(kopecks) } }),
      )
    } else {
      await must(changeDelivery(api, orderId, segment, values))
    }
  } catch (error) {
    if (!(error instanceof ApiResponseError)) throw error
    const fields = fieldErrors(error.body)
    return fail(error.status, Object.keys(fields).length > 0 ? null : error.message, fields)
  }
  return redirectWithToast(
    `/orders/${orderId}/pay`,
    {
      type: 'success',
      text: t(intent === 'edit_delivery' ? 'payment.edit.delivery_saved' : 'payment.edit.saved'),
    },
    { request, headers: api.headers, status: 303 },
  )
}

/** The delivery fields of the order's kind, as typed (an empty one is left to the API to refuse). */
function changeDelivery(
  api: ApiSession,
  id: string,
  segment: (typeof SEGMENT)[OrderKind],
  values: Record<string, string>,
) {
  const path = { params: { path: { id } } }
  const email = values.email ?? ''
  switch (segment) {
    case 'pubg':
      return api.client.POST('/api/orders/pubg/{id}/delivery_details/update/', { ...path, body: { email } })
    case 'rokky':
      return api.client.POST('/api/orders/rokky/{id}/delivery_details/update/', { ...path, body: { email } })
    case 'standoff':
      return api.client.POST('/api/orders/standoff/{id}/delivery_details/update/', {
        ...path,
        body: { email, game_account_id: values.game_account_id ?? '' },
      })
    case 'steam':
      return api.client.POST('/api/orders/steam/{id}/delivery_details/update/', {
        ...path,
        body: { email, steam_account_id: values.steam_account_id ?? '' },
      })
    case 'supply_channel': {
      const server = values.moogold_server ?? ''
      const custom = values.moogold_server_custom_id
      return api.client.POST('/api/orders/supply_channel/{id}/delivery_details/update/', {
        ...path,
        body: {
          email,
          moogold_user_id: values.moogold_user_id ?? '',
          // a chosen server id; anything that is not a number goes as the API's own refusal
          ...(server ? { moogold_server: /^\d{1,9}$/.test(server) ? Number(server) : -1 } : {}),
          ...(custom !== undefined ? { moogold_server_custom_id: custom } : {}),
        },
      })
    }
  }
}
