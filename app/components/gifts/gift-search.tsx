import { SearchForm } from '#app/components/search-form'
import { useT } from '#app/i18n/i18n-context'
import type { GiftTab } from '#app/lib/view-models/gift'

/** The gift search: searches from page 1 and keeps the chosen list. */
export function GiftSearch({ tab, search }: { tab: GiftTab; search: string }) {
  const t = useT()
  return (
    <SearchForm
      action="/gifts"
      id="gift-search-input"
      className="gift-search"
      search={search}
      label={t('gifts.search.label')}
      placeholder={t('gifts.search.placeholder')}
      submit={t('gifts.search.submit')}
      hidden={tab !== 'all' ? { tab } : undefined}
    />
  )
}
