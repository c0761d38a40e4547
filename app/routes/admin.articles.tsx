// /admin/articles: the info articles (HTML, sanitized by the storefront when shown), and the pages
// the shop links to with which of them are still missing (issue 37: those show a placeholder).
// The legal documents are setup steps (issue 47): «Заполнить из шаблона» is a plain link
// (?template=slug, works without JavaScript) whose loader fills the form with the template and the
// seller's requisites; the owner reviews, edits and publishes it (saving the article publishes it).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit, useFailedForm } from '#app/components/admin/admin-form'
import { INFO_PAGES } from '#app/components/info/info-pages'
import type { components } from '#openapi/schema'
import { useT } from '#app/i18n/i18n-context'
import {
  adminT,
  badIntent,
  done,
  formFailure,
  ownerApi,
  read,
  readForm,
  settle,
} from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { linkedPageTitle, SELLER_SCREEN, templatePath } from '#app/lib/admin/overview-setup'
import { isLegalSlug } from '../../shared/legal-documents'

export const meta = adminMeta('articles.title')

const SLUG = /^[A-Za-z0-9_-]{1,64}$/

/** The articles the footer, the info section and the order form link to (contacts come from the requisites). */
const LINKED = INFO_PAGES.filter((p) => p.path !== '/info/contacts').map((p) => ({
  ...p,
  slug: p.path.slice('/info/'.length),
}))

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const slug = new URL(request.url).searchParams.get('template')
  // a slug with no template: the API's 404, shown as the unknown-address page
  const [articles, template] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/articles/')),
    slug === null
      ? null
      : read(
          request,
          api,
          api.client.GET('/api/admin/articles/{slug}/template/', { params: { path: { slug } } }),
        ),
  ])
  return data({ articles, template }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  if (posted.intent !== 'save' && posted.intent !== 'create' && posted.intent !== 'publish') badIntent()
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
  if (posted.intent === 'publish') {
    // published from a template: back to the list without ?template, the document now present
    const { error, response } = await call
    if (!response.ok) return formFailure(posted.key, posted.form, error, response, api)
    return done(request, api, adminT('admin.articles.template.published'), '/admin/articles')
  }
  return settle(
    request,
    api,
    posted,
    call,
    adminT(posted.intent === 'create' ? 'admin.articles.added' : 'admin.articles.saved'),
  )
}

type Template = components['schemas']['AdminArticleTemplate']

/** A legal document's template, filled with the requisites, to review, edit and publish. */
function TemplateForm({ template, published }: { template: Template; published: boolean }) {
  const t = useT()
  const title = linkedPageTitle(template.slug, t)
  const missing = template.missing_requisites
  return (
    <section id="article-template" className="card admin-section" aria-labelledby="article-template-h">
      <h2 id="article-template-h">{t('admin.articles.template.title', { title })}</h2>
      <p className="field__hint">{t('admin.articles.template.hint', { path: `/info/${template.slug}` })}</p>
      {missing.length > 0 ? (
        <p className="admin-warning-text" data-testid="template-missing">
          {t('admin.articles.template.missing', { fields: missing.join(', ') })}{' '}
          <Link to={SELLER_SCREEN}>{t('admin.articles.template.seller_link')}</Link>
        </p>
      ) : null}
      {published ? <p className="admin-warning-text">{t('admin.articles.template.replaces')}</p> : null}
      <AdminForm
        formKey={`article-template-${template.slug}`}
        intent="publish"
        label={`${t('admin.articles.template.publish')}: ${title}`}
        hidden={{ slug: template.slug }}
      >
        <Field name="header" label={t('admin.articles.header')} defaultValue={template.header} />
        <Field
          name="text"
          type="textarea"
          rows={16}
          label={t('admin.articles.text')}
          defaultValue={template.text}
        />
        <Submit>{t('admin.articles.template.publish')}</Submit>{' '}
        <Link to="/admin/articles">{t('admin.articles.template.cancel')}</Link>
      </AdminForm>
    </section>
  )
}

export default function AdminArticles() {
  const t = useT()
  const { articles, template } = useLoaderData<typeof loader>()
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
                ) : isLegalSlug(p.slug) ? (
                  <>
                    <strong className="admin-warning-text">{t('admin.linked_pages.missing')}.</strong>{' '}
                    <Link to={templatePath(p.slug)}>{t('admin.linked_pages.from_template')}</Link>
                  </>
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
      {template ? (
        <TemplateForm
          key={template.slug}
          template={template}
          published={articles.some((a) => a.slug === template.slug)}
        />
      ) : null}
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
