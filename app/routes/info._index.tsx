import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { infoLinks } from '#app/components/info/article-page'
import { infoMetaT } from '#app/components/info/info-meta'
import { INFO_PAGES } from '#app/components/info/info-pages'
import { InfoShell } from '#app/components/info/info-shell'
import { useT } from '#app/i18n/i18n-context'
import { pageMeta } from '#app/lib/seo'

export const meta: MetaFunction = (args) => {
  const t = infoMetaT(args.matches)
  return pageMeta(args, { title: t('info.index_title'), description: t('info.index_description') })
}

export const links = infoLinks

export default function InfoIndexPage() {
  const t = useT()
  return (
    <InfoShell title={t('info.title')} isIndex>
      <p className="info-lead">{t('info.index_lead')}</p>
      <ul className="info-index">
        {INFO_PAGES.map((p) => (
          <li key={p.path} className="card info-index__item">
            <h2>
              <Link to={p.path}>{t(`${p.key}.title`)}</Link>
            </h2>
            <p>{t(`${p.key}.summary`)}</p>
          </li>
        ))}
      </ul>
    </InfoShell>
  )
}
