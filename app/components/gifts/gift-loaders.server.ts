// Loaders of the gift routes. The page routes stay thin: they call these and render.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { invalidRoute, pageParam } from '#app/lib/http-errors.server'
import { hasRememberCookie, rememberedEmail } from '#app/lib/remembered-buyer.server'
import { markNoStore, markShared, newFormKey } from '#app/lib/shared-page.server'
import { type GiftTab, parseGiftTab, toGift, toGiftDetail } from '#app/lib/view-models/gift'
import { htmlToText, sanitizeHtml } from '#app/lib/sanitize-html'

/** Gifts per catalogue page. */
export const GIFTS_PER_PAGE = 8
const SEARCH_MAX = 100

const LIST_PATH = {
  all: '/api/gifts/',
  new: '/api/gifts/new/',
  discounted: '/api/gifts/discounted/',
} as const satisfies Record<GiftTab, string>

/** An API failure becomes the error screen with the API's status and text. */
function asRouteError(err: unknown, headers: Headers): never {
  if (err instanceof ApiResponseError) throw data({ message: err.message }, { status: err.status, headers })
  throw err
}

/** `/gifts` and `/gifts/{page}`: one page of the chosen list, with the search applied. */
export async function loadGiftList({ request, context, params }: LoaderFunctionArgs) {
  const page = pageParam(request, params.page)
  const url = new URL(request.url)
  const tab = parseGiftTab(url.searchParams.get('tab'))
  const search = (url.searchParams.get('search') ?? '').trim().slice(0, SEARCH_MAX)
  const api = apiFor(request, context)
  const query = {
    limit: GIFTS_PER_PAGE,
    offset: (page - 1) * GIFTS_PER_PAGE,
    ...(search ? { search } : {}),
  }
  const [list, { t }] = await Promise.all([
    must(api.client.GET(LIST_PATH[tab], { params: { query } })).catch((err) =>
      asRouteError(err, api.headers),
    ),
    getServerT(request),
  ])
  // a page past the end of the list is not a page of it
  if (page > 1 && list.results.length === 0) invalidRoute(request)
  const pageCount = Math.max(1, Math.ceil(list.count / GIFTS_PER_PAGE))
  markShared(api)
  const title =
    page > 1
      ? t('gifts.meta.list_title_page', { page, product: t('meta.product_name') })
      : t('gifts.meta.list_title', { product: t('meta.product_name') })
  return data(
    {
      gifts: list.results.map((g) => toGift(g, t('common.currency'))),
      count: list.count,
      page,
      pageCount,
      tab,
      search,
      meta: { title, description: t('gifts.meta.list_description') },
    },
    { headers: api.headers },
  )
}

/** `/gifts/detalis/{id}`: the gift, or the 404 error screen. */
export async function loadGiftDetail({ request, context, params }: LoaderFunctionArgs) {
  const id = giftIdParam(request, params.id)
  const api = apiFor(request, context)
  const [wire, { t }] = await Promise.all([
    must(api.client.GET('/api/gifts/{id}/', { params: { path: { id } } })).catch((err) =>
      asRouteError(err, api.headers),
    ),
    getServerT(request),
  ])
  const detail = toGiftDetail(wire, t('common.currency'))
  // the description is owner-written HTML: sanitized markup for the page, its text elsewhere
  const gift = { ...detail, description: htmlToText(detail.description) }
  // a guest's device that remembers an email (issue 50) gets its own page, pre-filled; the cookie
  // comes only to the gift pages (Path=/gifts/detalis), so the lists stay shared for that guest
  const rememberedHere = !api.signedIn && hasRememberCookie(request)
  if (rememberedHere) markNoStore(api)
  else markShared(api)
  return data(
    {
      gift,
      /** The email a guest's last order on this device gave, for the form (issue 50). */
      rememberedEmail: rememberedHere ? (rememberedEmail(request) ?? null) : null,
      rememberedHere,
      descriptionHtml: sanitizeHtml(detail.description),
      // a fresh key per form render: resubmitting the same form cannot create a second order
      idempotencyKey: newFormKey(context),
      meta: {
        title: t('gifts.meta.detail_title', { title: gift.title, product: t('meta.product_name') }),
        description: t('gifts.meta.detail_description', {
          title: gift.title,
          type: gift.type,
          region: gift.region,
          price: gift.currentPriceText,
        }),
      },
    },
    { headers: api.headers },
  )
}

/** A gift id route parameter, or the route validity 404 (§5). */
export function giftIdParam(request: Request, raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) invalidRoute(request)
  return Number(raw)
}
