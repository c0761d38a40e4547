// The catalogue's loader, shared by `/` and `/{page}`: one API call per page view.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { invalidRoute, pageParam } from '#app/lib/http-errors.server'
import { markShared } from '#app/lib/shared-page.server'
import { type GameCard, type Product, toGameCard, toProduct } from '#app/lib/view-models/game'

export const PAGE_SIZE = 8
const SEARCH_MAX = 100

export interface CatalogueCard extends GameCard {
  /** The biggest discount on the game or any of its products, in percent. */
  bestDiscount: number
  /** The cheapest unit price among the active products, or null when none is on sale. */
  priceFrom: number | null
}

function toCard(game: GameCard, products: Product[]): CatalogueCard {
  const active = products.filter((p) => p.isActive)
  const prices = active.map((p) => p.unitPrice)
  return {
    ...game,
    bestDiscount: Math.max(game.discountPercent, ...active.map((p) => p.discountPercent), 0),
    priceFrom: prices.length > 0 ? Math.min(...prices) : null,
  }
}

export async function catalogueLoader({ request, params, context }: LoaderFunctionArgs) {
  const page = pageParam(request, params.page)
  const search = (new URL(request.url).searchParams.get('search') ?? '').trim().slice(0, SEARCH_MAX)
  const api = apiFor(request, context)
  try {
    const result = await must(
      api.client.GET('/api/games/', {
        params: {
          query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, ...(search ? { search } : {}) },
        },
      }),
    )
    const pages = Math.max(1, Math.ceil(result.count / PAGE_SIZE))
    // a page past the end is not a page of the catalogue
    if (page > pages) invalidRoute(request)
    const games = result.results.map((g) => toCard(toGameCard(g), g.products.map(toProduct)))
    markShared(api)
    return data({ games, page, pages, count: result.count, search }, { headers: api.headers })
  } catch (error) {
    if (error instanceof ApiResponseError) {
      throw data({ message: error.message }, { status: error.status, headers: api.headers })
    }
    throw error
  }
}
