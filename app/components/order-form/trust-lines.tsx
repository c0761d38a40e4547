// What a buyer weighs before paying, under the game's header (issue 50): when the order is
// delivered, the refund promise with its rules, where and when support answers (the hours are the
// owner's setting, shown only when said), and how one pays. Plain
// links, so it reads the same without JavaScript; short, so the packs stay on a phone's first screen.
import { Link, useRouteLoaderData } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'

interface RootShop {
  shop?: { support_email?: string; support_phone?: string; support_hours?: string } | null
}

export function TrustLines({ deliveryMinutes }: { deliveryMinutes: number | null }) {
  const t = useT()
  const shop = (useRouteLoaderData('root') as RootShop | undefined)?.shop
  const email = shop?.support_email ?? ''
  const phone = shop?.support_phone ?? ''
  // the owner's own words (/admin/shop), shown as text: never markup, never a translation's input
  const hours = shop?.support_hours ?? ''
  return (
    <ul className="trust" aria-label={t('products.trust.label')} data-testid="game-trust">
      {/* a person delivers some games: their header already says within how many minutes */}
      {deliveryMinutes === null ? <li>{t('products.trust.instant')}</li> : null}
      <li>
        {t('products.trust.refund')} <Link to="/info/refunds">{t('legal.nav_refunds')}</Link>
      </li>
      <li>
        {t('products.trust.support')}{' '}
        {email ? (
          <a href={`mailto:${email}`}>{email}</a>
        ) : phone ? (
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
        ) : (
          <Link to="/info/contacts">{t('nav.contacts')}</Link>
        )}
        {hours ? <span className="trust__hours">, {hours}</span> : null}
      </li>
      <li>
        {t('products.trust.pay')} <b className="trust__pay">{t('products.trust.cards')}</b>{' '}
        <b className="trust__pay">{t('products.trust.sbp')}</b>
      </li>
    </ul>
  )
}
