import { Form } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import type { GiftTab } from '#app/lib/view-models/gift'

/** A GET form: the query lands in the URL, searches from page 1 and keeps the chosen list. */
export function GiftSearch({ tab, search }: { tab: GiftTab; search: string }) {
  const t = useT()
  return (
    <Form method="get" action="/gifts" role="search" className="gift-search">
      {tab !== 'all' ? <input type="hidden" name="tab" value={tab} /> : null}
      <label htmlFor="gift-search-input" className="visually-hidden">
        {t('gifts.search.label')}
      </label>
      <input
        id="gift-search-input"
        className="input"
        type="search"
        name="search"
        defaultValue={search}
        key={search}
        maxLength={100}
        placeholder={t('gifts.search.placeholder')}
        autoComplete="off"
      />
      <button type="submit" className="button button--primary">
        {t('gifts.search.submit')}
      </button>
    </Form>
  )
}
