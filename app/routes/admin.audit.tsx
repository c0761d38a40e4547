// /admin/audit: every back-office change, newest first — who, when, what, before and after.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData, useLocation } from '@remix-run/react'
import { FilterButtons, SelectFilter } from '#app/components/admin/filter-fields'
import { Pager, pageFrom } from '#app/components/admin/pager'
import { Field } from '#app/components/form/field'
import { useWhen } from '#app/lib/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { ownerApi, read } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('audit.title')

/** Actors that are no person: the role reconciliation's sources (services/admin/role-audit.ts). */
const ACTORS = { staff_roles: 1, ADMIN_EMAILS: 1, 'account deleted': 1, 'email unconfirmed': 1 }

const ENTITIES = [
  'order',
  'game',
  'product',
  'gift',
  'faq',
  'article',
  'promo_code',
  'country',
  'payment_method_group',
  'payment_method',
  'product_code',
  'gift_code',
] as const
const PAGE_SIZE = 50

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const search = new URL(request.url).searchParams
  const entity = (ENTITIES as readonly string[]).includes(search.get('entity') ?? '')
    ? (search.get('entity') as string)
    : undefined
  const entityId = search.get('entity_id')?.trim().slice(0, 64) || undefined
  const page = pageFrom(search)
  const log = await read(
    request,
    api,
    api.client.GET('/api/admin/audit/', {
      params: { query: { entity, entity_id: entityId, page, page_size: PAGE_SIZE } },
    }),
  )
  return data({ log, entity, entityId, page }, { headers: api.headers })
}

const json = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 2))

export default function AdminAudit() {
  const formatWhen = useWhen()
  const t = useT()
  const { log, entity, entityId, page } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  // a system actor (how a role changed) and an entity in words; one the labels lack as it came
  const actorText = (actor: string | null) =>
    actor === null ? '—' : Object.hasOwn(ACTORS, actor) ? t(`admin.audit.actors.${actor}`) : actor
  const entityText = (entity: string) => {
    const key = `admin.audit.entities.${entity}`
    const text = t(key)
    return text === key ? entity : text
  }
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.audit.title')}</h1>
      <Form method="get" className="admin-filters" aria-label={t('admin.audit.filter')}>
        <SelectFilter
          id="audit-entity"
          name="entity"
          label={t('admin.audit.entity')}
          any={t('admin.audit.any')}
          options={ENTITIES.map((e) => ({ value: e, label: t(`admin.audit.entities.${e}`) }))}
          value={entity}
        />
        <Field
          id="audit-entity-id"
          label={t('admin.audit.entity_id')}
          name="entity_id"
          defaultValue={entityId ?? ''}
          maxLength={64}
        />
        <FilterButtons find={t('admin.audit.filter')} />
      </Form>
      {log.results.length === 0 ? (
        <p>{t('admin.audit.nothing')}</p>
      ) : (
        <table className="admin-table admin-table--cards">
          <caption className="visually-hidden">{t('admin.audit.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.audit.when')}</th>
              <th scope="col">{t('admin.audit.who')}</th>
              <th scope="col">{t('admin.audit.action')}</th>
              <th scope="col">{t('admin.audit.target')}</th>
              <th scope="col">{t('admin.audit.changes')}</th>
            </tr>
          </thead>
          <tbody>
            {log.results.map((e) => (
              <tr key={e.id}>
                <td data-label={t('admin.audit.when')}>{formatWhen(e.created)}</td>
                <td data-label={t('admin.audit.who')} className="admin-break">
                  {actorText(e.actor)}
                </td>
                <td data-label={t('admin.audit.action')} className="admin-mono">
                  {e.action}
                </td>
                <td data-label={t('admin.audit.target')} className="admin-break">
                  {entityText(e.entity)} {e.entity_id}
                </td>
                <td data-label={t('admin.audit.changes')}>
                  {e.before === null && e.after === null ? (
                    '—'
                  ) : (
                    <details>
                      <summary>{t('admin.common.details')}</summary>
                      <p>{t('admin.audit.before')}</p>
                      <pre className="admin-pre">{json(e.before)}</pre>
                      <p>{t('admin.audit.after')}</p>
                      <pre className="admin-pre">{json(e.after)}</pre>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} count={log.count} pageSize={PAGE_SIZE} search={search} />
    </section>
  )
}
