import { Link } from '@remix-run/react'
import { type Gift, giftHref } from '#app/lib/view-models/gift'
import { GiftBadges } from './gift-badges'
import { GiftPrice } from './gift-price'

/** One gift in the catalogue grid; the whole card opens the gift. */
export function GiftCard({ gift }: { gift: Gift }) {
  return (
    <li className={gift.inStock ? 'gift-card card' : 'gift-card card gift-card--out'}>
      <img className="gift-card__logo" src={gift.logo} alt="" width={200} height={160} loading="lazy" />
      <h2 className="gift-card__title">
        <Link to={giftHref(gift.id)} className="gift-card__link">
          {gift.title}
        </Link>
      </h2>
      <p className="gift-card__type">{gift.type}</p>
      <GiftBadges gift={gift} />
      <GiftPrice gift={gift} />
    </li>
  )
}
