// /admin/stock/:kind/:id — import codes for a voucher product or a gift (paste or a CSV/TXT file;
// a line-by-line report of what was refused), and the codes, masked, each revealed on request
// (the API writes every reveal to the audit log).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { Pager, pageFrom } from '#app/components/admin/pager'
import { CheckField, ErrorList, Field as FormField } from '#app/components/form/field'
import { useWhen } from '#app/lib/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, done, formFailure, idFrom, ownerApi, read } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { invalidRoute, pageNotFound } from '#app/lib/http-errors.server'
import type { components } from '#openapi/schema'

export const meta = adminMeta('stock.title')

const MAX_FILE_BYTES = 4_000_000
const PAGE_SIZE = 50
type Kind = 'products' | 'gifts'

function target(request: Request, params: { kind?: string; id?: string }) {
  if ((params.kind !== 'products' && params.kind !== 'gifts') || !/^[1-9]\d{0,8}$/.test(params.id ?? ''))
    invalidRoute(request)
  return { kind: params.kind as Kind, id: Number(params.id) }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const { kind, id } = target(request, params)
  const search = new URL(request.url).searchParams
  const status =
    search.get('status') === 'free' || search.get('status') === 'sold'
      ? (search.get('status') as 'free' | 'sold')
      : undefined
  const page = pageFrom(search)
  const [stock, codes] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/stock/')),
    read(
      request,
      api,
      api.client.GET('/api/admin/stock/{kind}/{id}/codes/', {
        params: { path: { kind, id }, query: { status, page, page_size: PAGE_SIZE } },
      }),
    ),
  ])
  const counts = stock[kind].find((r) => r.id === id)
  if (!counts) pageNotFound(request)
  return data({ kind, counts, codes, status, page }, { headers: api.headers })
}

type ActionResult =
  | { ok: true; report: components['schemas']['AdminStockImportReport'] }
  | { ok: true; revealed: components['schemas']['AdminStockCode'] }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const { kind, id } = target(request, params)
  const form = await request.formData()
  const key = String(form.get('_form') ?? '')
  const intent = form.get('intent')
  if (intent === 'reveal') {
    const codeId = idFrom(form.get('code_id'))
    const {
      data: code,
      error,
      response,
    } = await api.client.POST('/api/admin/stock/{kind}/{id}/codes/{code_id}/reveal/', {
      params: { path: { kind, id, code_id: codeId } },
    })
    if (!code) return formFailure(key, form, error, response, api)
    return data<ActionResult>({ ok: true, revealed: code }, { headers: api.headers })
  }
  if (intent === 'threshold') {
    // the low-stock alert threshold (issue 37): empty = the default, 0 = never
    const raw = String(form.get('threshold') ?? '').trim()
    const threshold = raw === '' ? null : Number(raw)
    if (threshold !== null && !(Number.isInteger(threshold) && threshold >= 0 && threshold <= 1_000_000)) {
      const message = adminT('admin.stock_threshold.hint')
      return formFailure(
        key,
        form,
        { detail: message, code: 'threshold', fields: { threshold: [message] } },
        new Response(null, { status: 400 }),
        api,
      )
    }
    const {
      data: saved,
      error,
      response,
    } = await api.client.PUT('/api/admin/stock/{kind}/{id}/threshold/', {
      params: { path: { kind, id } },
      body: { threshold },
    })
    if (!saved) return formFailure(key, form, error, response, api)
    return done(request, api, adminT('admin.stock_threshold.saved'))
  }
  if (intent !== 'import') badIntent()
  const file = form.get('file')
  let text = String(form.get('text') ?? '')
  const refuse = (message: string, status = 400) =>
    formFailure(key, form, { detail: message, code: 'form' }, new Response(null, { status }), api)
  if (file instanceof File && file.size > 0) {
    if (file.size > MAX_FILE_BYTES) return refuse(adminT('admin.stock.too_big'), 413)
    text = await file.text()
  }
  if (!text.trim()) return refuse(adminT('admin.stock.empty'))
  const {
    data: report,
    error,
    response,
  } = await api.client.POST('/api/admin/stock/{kind}/{id}/codes/', {
    params: { path: { kind, id } },
    body: { text, dry_run: form.get('dry_run') !== null },
  })
  if (!report) return formFailure(key, form, error, response, api)
  return data<ActionResult>({ ok: true, report }, { headers: api.headers })
}

function ImportReport({ report }: { report: components['schemas']['AdminStockImportReport'] }) {
  const t = useT()
  return (
    <section className="card admin-section" aria-labelledby="stock-report" role="status">
      <h2 id="stock-report">{t('admin.stock.report')}</h2>
      <p>
        {report.dry_run
          ? t('admin.stock.checked', { count: report.imported })
          : t('admin.stock.imported', { count: report.imported })}
      </p>
      {report.refused.length > 0 ? (
        <>
          <p>{t('admin.stock.refused', { count: report.refused.length })}</p>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.stock.line')}</th>
                <th scope="col">{t('admin.stock.text')}</th>
                <th scope="col">{t('admin.stock.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {report.refused.slice(0, 500).map((r) => (
                <tr key={r.line}>
                  <td>{r.line}</td>
                  <td className="admin-mono admin-break">{r.text}</td>
                  <td>{t(`admin.stock.reasons.${r.reason}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  )
}

export default function AdminStockItem() {
  const formatWhen = useWhen()
  const t = useT()
  const { counts, codes, status, page } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const navigation = useNavigation()
  const { search } = useLocation()
  const importing = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'import'
  const failure = result && !result.ok ? result : null
  const report = result?.ok && 'report' in result ? result.report : null
  const revealed = result?.ok && 'revealed' in result ? result.revealed : null
  return (
    <section aria-labelledby="admin-h1">
      <p>
        <Link className="admin-back" to="/admin/stock">
          ← {t('admin.stock.back')}
        </Link>
      </p>
      <h1 id="admin-h1">{counts.title}</h1>
      <p>
        {t('admin.stock.free')}: <strong>{counts.free}</strong> · {t('admin.stock.sold')}:{' '}
        <strong>{counts.sold}</strong>
      </p>

      <section className="card admin-section" aria-labelledby="stock-threshold">
        <h2 id="stock-threshold">{t('admin.stock_threshold.title')}</h2>
        <AdminForm formKey="threshold" intent="threshold" label={t('admin.stock_threshold.title')}>
          <Field
            name="threshold"
            type="number"
            label={t('admin.stock_threshold.label')}
            hint={t('admin.stock_threshold.hint')}
            defaultValue={counts.threshold === null ? '' : String(counts.threshold)}
          />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </section>

      <section className="card admin-section" aria-labelledby="stock-import">
        <h2 id="stock-import">{t('admin.stock.import')}</h2>
        <Form
          method="post"
          encType="multipart/form-data"
          className="admin-form"
          aria-label={t('admin.stock.import')}
          noValidate
        >
          <input type="hidden" name="intent" value="import" />
          <input type="hidden" name="_form" value="import" />
          <ErrorList errors={failure?.form === 'import' ? failure.message : undefined} />
          <FormField id="stock-text" label={t('admin.stock.paste')} hint={t('admin.stock.paste_hint')}>
            {(control) => (
              <textarea
                {...control}
                name="text"
                rows={8}
                className="admin-mono"
                defaultValue={failure?.values.text ?? ''}
              />
            )}
          </FormField>
          <FormField
            id="stock-file"
            label={t('admin.stock.file')}
            hint={t('admin.stock.file_hint')}
            name="file"
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
          />
          <CheckField id="stock-dry-run" name="dry_run" label={t('admin.stock.dry_run')} />
          <button type="submit" className="button button--primary" disabled={importing}>
            {t('admin.stock.submit')}
          </button>
        </Form>
      </section>
      {report ? <ImportReport report={report} /> : null}

      <section className="admin-section" aria-labelledby="stock-codes">
        <h2 id="stock-codes">{t('admin.stock.codes')}</h2>
        <nav className="admin-tabs" aria-label={t('admin.stock.filter')}>
          {([undefined, 'free', 'sold'] as const).map((s) => (
            <Link
              key={s ?? 'all'}
              to={s ? `?status=${s}` : '?'}
              aria-current={status === s ? 'page' : undefined}
            >
              {t(s ? `admin.stock.status_${s}` : 'admin.stock.all')}
            </Link>
          ))}
        </nav>
        {failure?.form === 'reveal' ? (
          <p className="form-error" role="alert">
            {failure.message}
          </p>
        ) : null}
        {codes.results.length === 0 ? (
          <p>{t('admin.stock.none')}</p>
        ) : (
          <table className="admin-table admin-table--cards">
            <caption className="visually-hidden">{t('admin.stock.codes')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.common.id')}</th>
                <th scope="col">{t('admin.stock.code')}</th>
                <th scope="col">{t('admin.stock.sold_at')}</th>
              </tr>
            </thead>
            <tbody>
              {codes.results.map((c) => (
                <tr key={c.id}>
                  <th scope="row" data-label={t('admin.common.id')}>
                    {c.id}
                  </th>
                  <td data-label={t('admin.stock.code')}>
                    {revealed?.id === c.id ? (
                      <output
                        className="admin-mono admin-break"
                        aria-label={t('admin.stock.revealed', { id: c.id })}
                      >
                        {revealed.code}
                      </output>
                    ) : (
                      <Form method="post" className="admin-inline">
                        <input type="hidden" name="intent" value="reveal" />
                        <input type="hidden" name="_form" value="reveal" />
                        <input type="hidden" name="code_id" value={c.id} />
                        <span className="admin-mono">{c.code}</span>{' '}
                        <button
                          type="submit"
                          className="button admin-button--small"
                          aria-label={`${t('admin.stock.reveal')} ${c.id}`}
                        >
                          {t('admin.stock.reveal')}
                        </button>
                      </Form>
                    )}
                  </td>
                  <td data-label={t('admin.stock.sold_at')}>{c.sold_at ? formatWhen(c.sold_at) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} count={codes.count} pageSize={PAGE_SIZE} search={search} />
      </section>
    </section>
  )
}
