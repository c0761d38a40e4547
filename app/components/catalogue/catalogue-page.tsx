import type { LinksFunction, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { SearchForm } from '#app/components/search-form'
import { useT } from '#app/i18n/i18n-context'
import { formatMoney } from '#app/lib/money'
import { pageMeta } from '#app/lib/seo'
import catalogueCss from '#app/styles/catalogue.css?url'
import type { CatalogueCard, catalogueLoader } from './catalogue.server'
import { metaT } from './meta-t'

export const catalogueLinks: LinksFunction = () => [{ rel: 'stylesheet', href: catalogueCss }]

export const catalogueMeta: MetaFunction<typeof catalogueLoader> = (args) => {
  const { data, matches } = args
  const t = metaT(matches)
  const page = data?.page ?? 1
  return [
    // title, description, canonical link (the path without the query) and Open Graph tags
    ...pageMeta(args, {
      title: page > 1 ? t('catalogue.meta_title_page', { page }) : t('catalogue.meta_title'),
      description: t('catalogue.meta_description'),
    }),
    // searches and later pages point search engines at the plain first page
    ...(data?.search ? [{ name: 'robots', content: 'noindex, follow' }] : []),
  ]
}

/** `/` for the first page, `/{n}` after it; the search term travels along. */
export function pageHref(page: number, search: string): string {
  const path = page <= 1 ? '/' : `/${page}`
  return search ? `${path}?${new URLSearchParams({ search })}` : path
}

function GameCardItem({ game, eager }: { game: CatalogueCard; eager: boolean }) {
  const t = useT()
  return (
    <li>
      <Link to={`/products/${game.id}`} className="game-card" prefetch="intent">
        <img
          className="game-card__logo"
          src={game.logo}
          alt=""
          width={96}
          height={96}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
        />
        <span className="game-card__body">
          <span className="game-card__title">{game.title}</span>
          {game.priceFrom !== null ? (
            <span className="game-card__price">
              {t('catalogue.price_from', { price: formatMoney(game.priceFrom) })}
            </span>
          ) : null}
          <span className="game-card__badges">
            {game.bestDiscount > 0 ? (
              <span className="badge">
                <span aria-hidden="true">{t('catalogue.discount', { percent: game.bestDiscount })}</span>
                <span className="visually-hidden">
                  {t('catalogue.discount_label', { percent: game.bestDiscount })}
                </span>
              </span>
            ) : null}
            {game.isAuthRequired ? (
              <span className="badge badge--muted" title={t('catalogue.auth_required_label')}>
                <span aria-hidden="true">{t('catalogue.auth_required')}</span>
                <span className="visually-hidden">{t('catalogue.auth_required_label')}</span>
              </span>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  )
}

function Pagination({ page, pages, search }: { page: number; pages: number; search: string }) {
  const t = useT()
  if (pages <= 1) return null
  const numbers = Array.from({ length: pages }, (_, i) => i + 1).filter(
    (n) => n === 1 || n === pages || Math.abs(n - page) <= 2,
  )
  return (
    <nav className="pagination" aria-label={t('catalogue.pagination')}>
      <ul>
        {page > 1 ? (
          <li>
            <Link to={pageHref(page - 1, search)} rel="prev">
              {t('catalogue.prev_page')}
            </Link>
          </li>
        ) : null}
        {numbers.map((n, i) => (
          <li key={n}>
            {i > 0 && n - (numbers[i - 1] ?? n) > 1 ? <span aria-hidden="true">…</span> : null}
            <Link
              to={pageHref(n, search)}
              aria-current={n === page ? 'page' : undefined}
              aria-label={t('catalogue.page_n', { page: n })}
            >
              {n}
            </Link>
          </li>
        ))}
        {page < pages ? (
          <li>
            <Link to={pageHref(page + 1, search)} rel="next">
              {t('catalogue.next_page')}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  )
}

export function CataloguePage() {
  const { games, page, pages, count, search } = useLoaderData<typeof catalogueLoader>()
  const t = useT()
  return (
    <div className="catalogue">
      <h1>{t('catalogue.heading')}</h1>
      <SearchForm
        action="/"
        id="catalogue-search"
        className="catalogue-search"
        search={search}
        label={t('catalogue.search_label')}
        placeholder={t('catalogue.search_placeholder')}
        submit={t('catalogue.search_submit')}
      />
      {search ? (
        <p className="catalogue__status" role="status">
          {count > 0
            ? t('catalogue.results_for', { query: search, count })
            : t('catalogue.nothing_found', { query: search })}{' '}
          <Link to="/">{t('catalogue.search_reset')}</Link>
        </p>
      ) : null}
      {games.length > 0 ? (
        <ul className="game-grid" aria-label={t('catalogue.games_list')}>
          {games.map((g, i) => (
            <GameCardItem key={g.id} game={g} eager={i < 4} />
          ))}
        </ul>
      ) : !search ? (
        <p>{t('catalogue.empty')}</p>
      ) : null}
      {pages > 1 ? <p className="catalogue__page-of">{t('catalogue.page_of', { page, pages })}</p> : null}
      <Pagination page={page} pages={pages} search={search} />
    </div>
  )
}
