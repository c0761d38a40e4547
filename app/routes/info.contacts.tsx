import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { infoLinks } from '#app/components/info/article-page'
import { ContactLines } from '#app/components/info/contact-lines'
import { infoMetaT } from '#app/components/info/info-meta'
import { InfoShell } from '#app/components/info/info-shell'
import { useT } from '#app/i18n/i18n-context'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { pageMeta } from '#app/lib/seo'
import { markShared, sharedPageHeaders } from '#app/lib/shared-page.server'
import { isSoleTraderNumber } from '../../shared/requisites'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = apiFor(request, context)
  try {
    const contact = await must(api.client.GET('/api/contacts/'))
    markShared(api)
    return data(
      {
        companyName: contact.company_name,
        address: contact.address,
        inn: contact.inn,
        companyId: contact.company_id,
        extra: contact.extra,
      },
      { headers: api.headers },
    )
  } catch (error) {
    if (error instanceof ApiResponseError) {
      throw data({ message: error.message }, { status: error.status, headers: api.headers })
    }
    throw error
  }
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const t = infoMetaT(args.matches)
  const c = args.data
  return pageMeta(args, {
    title: t('info.contacts.meta_title'),
    description: c
      ? t(
          isSoleTraderNumber(c.companyId)
            ? 'info.contacts.meta_description_ip'
            : 'info.contacts.meta_description',
          {
            company: c.companyName,
            inn: c.inn,
            ogrn: c.companyId,
          },
        )
      : t('info.pages.contacts.summary'),
  })
}

export const links = infoLinks
export const headers = sharedPageHeaders

export default function ContactsPage() {
  const c = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <InfoShell title={t('info.contacts.heading')}>
      <p className="info-lead">{t('info.contacts.lead')}</p>
      <dl className="info-contacts">
        <div>
          <dt>{t('info.contacts.company_name')}</dt>
          <dd>{c.companyName}</dd>
        </div>
        <div>
          <dt>{t('info.contacts.address')}</dt>
          <dd>{c.address}</dd>
        </div>
        <div>
          <dt>{t('info.contacts.inn')}</dt>
          <dd>{c.inn}</dd>
        </div>
        <div>
          <dt>
            {t(isSoleTraderNumber(c.companyId) ? 'info.contacts.company_id_ip' : 'info.contacts.company_id')}
          </dt>
          <dd>{c.companyId}</dd>
        </div>
        {c.extra.trim() ? (
          <div>
            <dt>{t('info.contacts.extra')}</dt>
            <dd>
              <ContactLines text={c.extra} />
            </dd>
          </div>
        ) : null}
      </dl>
    </InfoShell>
  )
}
