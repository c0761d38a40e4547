import type { MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { pageMeta } from '#app/lib/seo'
import type { loadGiftList } from './gift-loaders.server'
import { GiftCard } from './gift-card'
import { GiftPagination } from './gift-pagination'
import { GiftSearch } from './gift-search'
import { GiftTabs } from './gift-tabs'

export const giftListMeta: MetaFunction<typeof loadGiftList> = (args) =>
  args.data ? pageMeta(args, { title: args.data.meta.title, description: args.data.meta.description }) : []

/** `/gifts` and `/gifts/{page}`: tabs, search, the grid and the page links. */
export function GiftListPage() {
  const t = useT()
  const { gifts, count, page, pageCount, tab, search } = useLoaderData<typeof loadGiftList>()
  return (
    <div className="gifts">
      <h1>{t('gifts.heading')}</h1>
      <GiftTabs current={tab} search={search} />
      <GiftSearch tab={tab} search={search} />
      <p className="gifts__count" role="status">
        {search ? t('gifts.found_for', { count, query: search }) : t('gifts.found', { count })}
      </p>
      {gifts.length > 0 ? (
        <ul className="gift-grid">
          {gifts.map((gift) => (
            <GiftCard key={gift.id} gift={gift} />
          ))}
        </ul>
      ) : (
        <p className="gifts__empty">{t('gifts.empty')}</p>
      )}
      <GiftPagination page={page} pageCount={pageCount} tab={tab} search={search} />
    </div>
  )
}
