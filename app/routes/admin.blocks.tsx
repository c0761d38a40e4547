// /admin/blocks — the owner's block lists (issue 34): emails, email domains, client addresses or
// networks and cards, each removable; held orders post «block everything of this order» here.
// Post forms that work without JavaScript; owner only.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { useWhen } from '#app/lib/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, idFrom, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { formBody, formSpec } from '#app/lib/admin/form-body'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('blocks.title')

const BLOCK_SPEC = formSpec('post', '/api/admin/blocks/', {
  kind: 'text',
  value: 'text',
  note: 'nullableText',
})
const KINDS = ['email', 'domain', 'network', 'card'] as const
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const blocks = await read(request, api, api.client.GET('/api/admin/blocks/'))
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ blocks: [...blocks.results].reverse() }, { headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  const { form, intent } = posted
  const c = api.client
  switch (intent) {
    case 'add': {
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/blocks/', { body: formBody(form, BLOCK_SPEC) }),
        adminT('admin.blocks.added'),
      )
    }
    case 'remove':
      return settle(
        request,
        api,
        posted,
        c.DELETE('/api/admin/blocks/{id}/', { params: { path: { id: idFrom(form.get('id')) } } }),
        adminT('admin.blocks.removed'),
      )
    case 'block_order': {
      const id = String(form.get('order') ?? '')
      if (!UUID.test(id)) badIntent()
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/orders/{id}/block/', { params: { path: { id } } }),
        adminT('admin.blocks.order_blocked'),
      )
    }
  }
  badIntent()
}

export default function AdminBlocks() {
  const formatWhen = useWhen()
  const t = useT()
  const { blocks } = useLoaderData<typeof loader>()
  const k = (key: string, p?: Record<string, string | number>) => t(`admin.blocks.${key}`, p)
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{k('title')}</h1>
      <p className="field__hint">{k('intro')}</p>
      <p className="admin-row">
        <Link to="/admin/antifraud">{t('admin.nav.antifraud')}</Link>
      </p>
      <section className="card admin-section">
        <h2>{k('add')}</h2>
        <AdminForm formKey="block-add" intent="add" label={k('add')}>
          <Field
            name="kind"
            type="select"
            label={k('kind')}
            options={KINDS.map((v) => ({ value: v, label: k(`kinds.${v}`) }))}
          />
          <Field name="value" label={k('value')} hint={k('value_hint')} required />
          <Field name="note" label={k('note')} />
          <Submit danger>{k('add_submit')}</Submit>
        </AdminForm>
      </section>
      <h2>{k('list')}</h2>
      {blocks.length === 0 ? (
        <p>{k('empty')}</p>
      ) : (
        <ul className="admin-list">
          {blocks.map((b) => (
            <li key={b.id} className="card" aria-label={`${k(`kinds.${b.kind}`)}: ${b.value}`}>
              <p>
                <strong>{k(`kinds.${b.kind}`)}:</strong>{' '}
                <span className="admin-mono admin-break">
                  {b.kind === 'card' ? `${b.value.slice(0, 12)}…` : b.value}
                </span>
              </p>
              <p className="field__hint">
                {formatWhen(b.created)} · {b.created_by ?? '—'}
                {b.note ? ` · ${b.note}` : ''}
              </p>
              <AdminForm formKey={`remove-${b.id}`} intent="remove" label={k('remove')} hidden={{ id: b.id }}>
                <Submit>{k('remove')}</Submit>
              </AdminForm>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
