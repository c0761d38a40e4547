// /admin/articles: the info articles (HTML, sanitized by the storefront when shown), and the pages
// the shop links to with which of them are still missing (issue 37: those show a placeholder).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit, useFailedForm } from '#app/components/admin/admin-form'
import { INFO_PAGES } from '#app/components/info/info-pages'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, formFailure, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('articles.title')

const SLUG = /^[A-Za-z0-9_-]{1,64}$/

/** The articles the footer, the info section and the order form link to (contacts come from the requisites). */
const LINKED = INFO_PAGES.filter((p) => p.path !== '/info/contacts').map((p) => ({
  ...p,
  slug: p.path.slice('/info/'.length),
}))

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const articles = await read(request, api, api.client.GET('/api/admin/articles/'))
  return data({ articles }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  if (posted.intent !== 'save' && posted.intent !== 'create') badIntent()
  const slug = String(posted.form.get('slug') ?? '').trim()
  if (!SLUG.test(slug)) {
    const message = adminT('admin.articles.slug_hint')
    const response = new Response(null, { status: 400 })
    return formFailure(
      posted.key,
      posted.form,
      { detail: message, code: 'slug', fields: { slug: [message] } },
      response,
      api,
    )
  }
  const call = api.client.PUT('/api/admin/articles/{slug}/', {
    params: { path: { slug } },
    body: { header: String(posted.form.get('header') ?? ''), text: String(posted.form.get('text') ?? '') },
  })
  return settle(
    request,
    api,
    posted,
    call,
    adminT(posted.intent === 'create' ? 'admin.articles.added' : 'admin.articles.saved'),
  )
}

export default function AdminArticles() {
  const t = useT()
  const { articles } = useLoaderData<typeof loader>()
  const failed = useFailedForm()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.articles.title')}</h1>
      <p className="field__hint">{t('admin.articles.text_hint')}</p>
      <section className="card admin-section" aria-labelledby="linked-pages">
        <h2 id="linked-pages">{t('admin.linked_pages.title')}</h2>
        <p className="field__hint">{t('admin.linked_pages.hint')}</p>
        <ul className="admin-list">
          {LINKED.map((p) => {
            const present = articles.some((a) => a.slug === p.slug)
            return (
              <li key={p.slug} data-linked={p.slug} data-present={present}>
                <a href={p.path}>{t(`${p.key}.title`)}</a> <span className="admin-mono">{p.slug}</span> —{' '}
                {present ? (
                  t('admin.linked_pages.present')
                ) : (
                  <strong className="admin-warning-text">
                    {t('admin.linked_pages.missing')}. {t('admin.linked_pages.create', { slug: p.slug })}
                  </strong>
                )}
              </li>
            )
          })}
        </ul>
      </section>
      {articles.length === 0 ? <p>{t('admin.articles.none')}</p> : null}
      <ul className="admin-cards">
        {articles.map((a) => (
          <li key={a.slug} className="card">
            <details open={failed === `article-${a.slug}` || undefined}>
              <summary>
                <strong>{a.header}</strong> <span className="field__hint admin-mono">{a.slug}</span>
              </summary>
              <AdminForm
                formKey={`article-${a.slug}`}
                intent="save"
                label={`${t('admin.common.edit')}: ${a.header}`}
                hidden={{ slug: a.slug }}
              >
                <Field name="header" label={t('admin.articles.header')} defaultValue={a.header} />
                <Field
                  name="text"
                  type="textarea"
                  rows={10}
                  label={t('admin.articles.text')}
                  defaultValue={a.text}
                />
                <Submit>{t('admin.common.save')}</Submit>
              </AdminForm>
            </details>
          </li>
        ))}
      </ul>
      <section className="card admin-section" aria-labelledby="article-add">
        <h2 id="article-add">{t('admin.articles.add')}</h2>
        <AdminForm
          formKey="article-new"
          intent="create"
          label={t('admin.articles.add')}
          key={articles.length}
        >
          <Field name="slug" label={t('admin.articles.slug')} hint={t('admin.articles.slug_hint')} />
          <Field name="header" label={t('admin.articles.header')} />
          <Field name="text" type="textarea" rows={8} label={t('admin.articles.text')} />
          <Submit>{t('admin.common.add')}</Submit>
        </AdminForm>
      </section>
    </section>
  )
}
