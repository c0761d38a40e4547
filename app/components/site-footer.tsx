import { Link } from '@remix-run/react'
import { Hint } from '#app/components/hint'
import { useT } from '#app/i18n/i18n-context'
import { isSoleTraderNumber } from '../../shared/requisites'

/** The seller as the footer names it (the owner's requisites). */
export interface SellerLine {
  name: string
  inn: string
  ogrn: string
}

/** The owner's support contacts (issue 37), shown when set, and tagline (issue 47). */
interface SupportLine {
  support_email: string
  support_phone: string
  /** When support answers (issue 50), the owner's words. */
  support_hours?: string
  tagline?: string
}

export function SiteFooter({ seller, shop }: { seller: SellerLine | null; shop?: SupportLine | null }) {
  const t = useT()
  return (
    <footer className="site-footer">
      <nav aria-label={t('nav.footer_links')}>
        <ul>
          <li>
            <Link to="/orders/find">{t('nav.find_order')}</Link>
          </li>
          <li>
            <Link to="/info">{t('nav.info')}</Link>
          </li>
          <li>
            <Link to="/info/contacts">{t('nav.contacts')}</Link>
          </li>
          <li>
            <Link to="/info/privacy-policy">{t('nav.privacy_policy')}</Link>
          </li>
          <li>
            <Link to="/info/user-agreement">{t('nav.user_agreement')}</Link>
          </li>
          <li>
            <Link to="/info/refunds">{t('legal.nav_refunds')}</Link>
          </li>
          <li>
            <Link to="/info/consent">{t('legal.nav_consent')}</Link>
          </li>
          <li>
            <Link to="/info/personal-data">{t('personal_data.title')}</Link>
          </li>
          <li>
            {/* the same link for everyone (a shared page varies by nothing): the page explains what a
                device remembers of a guest's orders and forgets it (issue 50) */}
            <Link to="/buyer/forget">{t('nav.device_data')}</Link>
          </li>
        </ul>
      </nav>
      {seller ? (
        <p className="site-footer-seller">
          {t(isSoleTraderNumber(seller.ogrn) ? 'footer.seller_ip' : 'footer.seller', {
            name: seller.name,
            inn: seller.inn,
            ogrn: seller.ogrn,
          })}
        </p>
      ) : null}
      {shop?.support_email || shop?.support_phone || shop?.support_hours ? (
        <p className="site-footer-support">
          {t('shop_shell.support')}{' '}
          {shop.support_email ? <a href={`mailto:${shop.support_email}`}>{shop.support_email}</a> : null}
          {shop.support_email && shop.support_phone ? ' · ' : null}
          {shop.support_phone ? (
            <a href={`tel:${shop.support_phone.replace(/[^\d+]/g, '')}`}>{shop.support_phone}</a>
          ) : null}
          {/* hours said without a channel: the contacts page, as under a game's header */}
          {shop.support_email || shop.support_phone ? null : (
            <Link to="/info/contacts">{t('nav.contacts')}</Link>
          )}
          {shop.support_hours ? `, ${shop.support_hours}` : null}
        </p>
      ) : null}
      <p>{shop?.tagline || t('footer.tagline')}</p>
      <p>
        {t('shell.payment_note')}
        <Hint label={t('shell.payment_hint_label')} text={t('shell.payment_hint')} />
      </p>
      <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
    </footer>
  )
}
