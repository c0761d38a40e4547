import { useT } from '#app/i18n/i18n-context'
import type { Gift } from '#app/lib/view-models/gift'

/** Region, cashback, discount and stock of a gift, as small labels. */
export function GiftBadges({ gift }: { gift: Gift }) {
  const t = useT()
  return (
    <ul className="gift-badges">
      <li className="badge badge--muted">{t('gifts.badges.region', { region: gift.region })}</li>
      {gift.cashback > 0 ? (
        <li className="badge gift-badge--cashback">
          {t('gifts.badges.cashback', { percent: gift.cashback })}
        </li>
      ) : null}
      {gift.discountPrice !== null && gift.discountPercent > 0 ? (
        <li className="badge gift-badge--discount">
          {t('gifts.badges.discount', { percent: gift.discountPercent })}
        </li>
      ) : null}
      {gift.inStock ? null : <li className="badge gift-badge--out">{t('gifts.badges.out_of_stock')}</li>}
    </ul>
  )
}
