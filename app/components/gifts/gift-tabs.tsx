import { Link } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { GIFT_TABS, type GiftTab, giftListHref } from '#app/lib/view-models/gift'

/** The three gift lists as links (URL state, so they work without JavaScript). */
export function GiftTabs({ current, search }: { current: GiftTab; search: string }) {
  const t = useT()
  return (
    <nav className="gift-tabs" aria-label={t('gifts.tabs.label')}>
      <ul>
        {GIFT_TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={giftListHref({ page: 1, tab, search })}
              aria-current={tab === current ? 'page' : undefined}
              className="gift-tabs__tab"
            >
              {t(`gifts.tabs.${tab}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
