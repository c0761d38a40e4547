// /admin/orders/:id — one order: what was bought, payments, the timeline, and what staff can do
// (note, resend the mail, deliver a paid order again; owners also cancel an unpaid order). Each
// action carries a request id made when the page was rendered, so a double submit is done once.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { DeferredReceiptCard } from '#app/components/admin/deferred-receipt-card'
import { StatusBadge } from '#app/components/admin/status-badge'
import { useWhen } from '#app/lib/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, done, formFailure, read, staffApi } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { invalidRoute } from '#app/lib/http-errors.server'
import { formatWireAmount, formatWireDecimal, formatWireMoney } from '#app/lib/money'
import { fieldText, ORDER_FIELDS } from '#app/lib/admin/order-fields'

export const meta = adminMeta('orders.summary')

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const UNPAID = ['created', 'waiting_for_payment']
/** Paid and not delivered: what the refund action takes (a failed one only when it was paid). */
const REFUNDABLE = ['paid', 'sending', 'sent']

function orderId(request: Request, raw: string | undefined): string {
  if (!raw || !UUID.test(raw)) invalidRoute(request)
  return raw.toLowerCase()
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, me } = await staffApi(request, context)
  const id = orderId(request, params.id)
  const [detail, views] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/orders/{id}/', { params: { path: { id } } })),
    read(request, api, api.client.GET('/api/admin/orders/{id}/code_views/', { params: { path: { id } } })),
  ])
  return data(
    { detail, views: views.results, role: me.role, requestId: crypto.randomUUID() },
    { headers: api.headers },
  )
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await staffApi(request, context)
  const id = orderId(request, params.id)
  const form = await request.formData()
  const key = String(form.get('_form') ?? '')
  const requestId = String(form.get('request_id') ?? '')
  const body = /^[\w-]{8,64}$/.test(requestId) ? { request_id: requestId } : {}
  const path = { params: { path: { id } } }
  const intent = form.get('intent')
  const call =
    intent === 'note'
      ? api.client.POST('/api/admin/orders/{id}/notes/', {
          ...path,
          body: { text: String(form.get('text') ?? '') },
        })
      : intent === 'resend'
        ? api.client.POST('/api/admin/orders/{id}/resend_mail/', { ...path, body })
        : intent === 'cancel'
          ? api.client.POST('/api/admin/orders/{id}/cancel/', { ...path, body })
          : intent === 'refund'
            ? api.client.POST('/api/admin/orders/{id}/refund/', {
                ...path,
                body: { ...body, ...(form.get('reason') ? { reason: String(form.get('reason')) } : {}) },
              })
            : intent === 'retry'
              ? api.client.POST('/api/admin/orders/{id}/retry_fulfilment/', { ...path, body })
              : badIntent()
  const { error, response } = await call
  if (!response.ok) return formFailure(key, form, error, response, api)
  const text = {
    note: 'note_added',
    resend: 'resent',
    cancel: 'cancelled',
    refund: 'refunded',
    retry: 'retried',
  }[intent as 'note']
  return done(request, api, adminT(`admin.orders.${text}`))
}

type Line = { id: number; title: string; quantity: number; price: string; codes?: Array<{ code: string }> }

export default function AdminOrder() {
  const formatWhen = useWhen()
  const t = useT()
  const { detail, views, role, requestId } = useLoaderData<typeof loader>()
  const o = detail.order as Record<string, unknown> & { id: string; number: number; status: string }
  const lines = (o.order_products as Line[] | undefined) ?? []
  const item = (o.game as { title?: string } | null)?.title ?? (o.gift as { title?: string } | null)?.title
  const refund = detail.refund ?? null
  const paid = detail.payments.some((p) => p.status === 'succeeded')
  const manualRefund = refund?.status === 'manual'
  const doneRefund = !refund && o.status === 'done' && paid
  const canRefund = refund
    ? manualRefund
    : REFUNDABLE.includes(o.status) || (o.status === 'failed' && paid) || doneRefund
  const record = o as Record<string, unknown>
  const words = {
    yes: t('admin.orders.yes'),
    no: t('admin.orders.no'),
    minutes: (n: number) => t('admin.orders.minutes', { n }),
    when: formatWhen,
    gold: formatWireDecimal,
  }
  const scalars = ORDER_FIELDS.filter(([k]) => k in record).map(
    ([k, kind]) => [t(`admin.orders.fields.${k}`), fieldText(kind, record[k], words)] as const,
  )
  return (
    <section aria-labelledby="admin-h1">
      <p>
        <Link className="admin-back" to="/admin/orders">
          ← {t('admin.orders.back')}
        </Link>
      </p>
      <h1 id="admin-h1" className="admin-break">
        {t('admin.orders.order', { number: o.number })}
      </h1>
      <p>
        <StatusBadge status={o.status} /> {t(`admin.orders.kinds.${String(o.resourcetype ?? '')}`)}{' '}
        {item ? `· ${item}` : null}
      </p>
      {o.reject_reason ? (
        <p className="form-error">
          {t('admin.orders.reject_reason')}: {String(o.reject_reason)}
        </p>
      ) : null}

      {refund ? (
        <p data-testid="admin-refund">
          <strong>{t('admin.orders.refund_title')}:</strong> {formatWireMoney(refund.amount)} ·{' '}
          {t(`admin.orders.refund_methods.${refund.method}`)} ·{' '}
          {t(`admin.orders.refund_states.${refund.status}`)} — {refund.reason}
        </p>
      ) : null}

      <div className="admin-grid">
        <section className="card" aria-labelledby="order-summary">
          <h2 id="order-summary">{t('admin.orders.summary')}</h2>
          <dl className="admin-dl">
            {scalars.map(([label, text]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd className="admin-break">{text}</dd>
              </div>
            ))}
            <div>
              <dt>{t('admin.orders.user')}</dt>
              <dd>{detail.user_id ?? t('admin.orders.guest')}</dd>
            </div>
          </dl>
          {lines.length > 0 ? (
            <>
              <h3>{t('admin.orders.lines')}</h3>
              <ul className="admin-list">
                {lines.map((l) => (
                  <li key={l.id}>
                    {l.title} × {l.quantity} — {formatWireMoney(l.price)}
                    {l.codes?.length ? (
                      <span className="admin-mono"> ({l.codes.map((c) => c.code).join(', ')})</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>

        <section className="card" aria-labelledby="order-payments">
          <h2 id="order-payments">{t('admin.orders.payments')}</h2>
          {detail.payments.length === 0 ? (
            <p>{t('admin.orders.no_payments')}</p>
          ) : (
            <ul className="admin-list">
              {detail.payments.map((p) => (
                <li key={p.id}>
                  {formatWhen(p.created)} · {p.method_title ?? p.method} ·{' '}
                  {p.provider === 'none'
                    ? t('admin.orders.payment_no_provider')
                    : t(`admin.payment_setup.providers.${p.provider}`)}{' '}
                  · {formatWireAmount(p.amount, p.currency)} ·{' '}
                  <strong>{t(`admin.orders.payment_statuses.${p.status}`)}</strong>
                  {p.external_id ? (
                    <span className="field__hint admin-break">
                      {' '}
                      · {t('admin.orders.payment_provider_id', { id: p.external_id })}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="order-code-views">
          <h2 id="order-code-views">{t('admin.code_views.title')}</h2>
          {views.length === 0 ? (
            <p>{t('admin.code_views.none')}</p>
          ) : (
            <ul className="admin-list">
              {views.map((v) => (
                <li key={v.id}>
                  {formatWhen(v.created)} · {t(`admin.code_views.places.${v.place}`)} ·{' '}
                  <span className="admin-mono">{v.client_address}</span> ·{' '}
                  {v.user_id === null ? t('admin.code_views.guest') : `#${v.user_id}`}
                  <span className="field__hint admin-break"> · {v.user_agent ?? '—'}</span>
                </li>
              ))}
            </ul>
          )}
          <p>
            <a href={`/admin/orders/${detail.order.id}/dispute.txt`} download>
              {t('admin.code_views.export')}
            </a>
          </p>
        </section>

        <section className="card" aria-labelledby="order-actions">
          <h2 id="order-actions">{t('admin.orders.actions')}</h2>
          <AdminForm
            formKey="resend"
            intent="resend"
            label={t('admin.orders.resend')}
            hidden={{ request_id: requestId }}
          >
            <p className="field__hint">{t('admin.orders.resend_hint')}</p>
            <Submit>{t('admin.orders.resend')}</Submit>
          </AdminForm>
          {detail.can_retry_fulfilment ? (
            <AdminForm
              formKey="retry"
              intent="retry"
              label={t('admin.orders.retry')}
              hidden={{ request_id: requestId }}
            >
              <p className="field__hint">{t('admin.orders.retry_hint')}</p>
              <Submit>{t('admin.orders.retry')}</Submit>
            </AdminForm>
          ) : null}
          {role === 'owner' && UNPAID.includes(o.status) ? (
            <AdminForm
              formKey="cancel"
              intent="cancel"
              label={t('admin.orders.cancel')}
              hidden={{ request_id: requestId }}
            >
              <p className="field__hint">{t('admin.orders.cancel_hint')}</p>
              <Submit danger>{t('admin.orders.cancel')}</Submit>
            </AdminForm>
          ) : null}
          {role === 'owner' && canRefund ? (
            <AdminForm
              formKey="refund"
              intent="refund"
              label={t(manualRefund ? 'admin.orders.refund_manual' : 'admin.orders.refund')}
              hidden={{ request_id: requestId }}
            >
              <p className="field__hint">
                {t(
                  manualRefund
                    ? 'admin.orders.refund_manual_hint'
                    : doneRefund
                      ? 'admin.refund_done.hint'
                      : 'admin.orders.refund_hint',
                )}
              </p>
              {manualRefund ? null : (
                <Field name="reason" label={t('admin.orders.refund_reason')} required={doneRefund} />
              )}
              <Submit danger>{t(manualRefund ? 'admin.orders.refund_manual' : 'admin.orders.refund')}</Submit>
            </AdminForm>
          ) : null}
          <AdminForm
            formKey="note"
            intent="note"
            label={t('admin.orders.add_note')}
            key={detail.timeline.length}
          >
            <Field
              name="text"
              type="textarea"
              label={t('admin.orders.note')}
              hint={t('admin.orders.note_hint')}
              rows={3}
            />
            <Submit>{t('admin.orders.add_note')}</Submit>
          </AdminForm>
        </section>
      </div>

      <section aria-labelledby="order-receipts" data-testid="order-receipts">
        <h2 id="order-receipts">{t('admin.receipts.card_title')}</h2>
        {(detail.receipts ?? []).length === 0 ? (
          <p>{t('admin.receipts.card_none')}</p>
        ) : (
          <div className="admin-receipts">
            {(detail.receipts ?? []).map((r) => (
              <DeferredReceiptCard key={r.id} receipt={r} showOrder={false} headingLevel={3} />
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="order-timeline">
        <h2 id="order-timeline">{t('admin.orders.timeline')}</h2>
        <ol className="admin-timeline">
          {detail.timeline.map((e) => (
            <li key={e.id}>
              <p>
                <time dateTime={e.created}>{formatWhen(e.created)}</time> ·{' '}
                <strong>{t(`admin.orders.events.${e.kind}`)}</strong>
                {e.kind === 'status' && typeof e.data.to === 'string' ? (
                  <>
                    {' '}
                    → <StatusBadge status={e.data.to} />
                  </>
                ) : null}
                {e.kind === 'note' && typeof e.data.text === 'string' ? <> — {e.data.text}</> : null}
                {e.kind === 'receipt' ? (
                  <ReceiptEvent data={e.data} receipts={detail.receipts ?? []} />
                ) : null}
                {typeof e.data.by === 'string' ? <span className="field__hint"> ({e.data.by})</span> : null}
              </p>
              {Object.keys(e.data).length > 0 && e.kind !== 'note' ? (
                <details>
                  <summary>{t('admin.orders.event_data')}</summary>
                  <pre className="admin-pre">{JSON.stringify(e.data, null, 2)}</pre>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </section>
  )
}

type CardReceipt = { id: number; kind: string; total: string }

/**
 * A receipt event in words: the receipt's kind and total as the «Кассовые чеки» section above
 * shows it, and its state at that moment («— Приход, предоплата 100 % · 418,24 ₽ · зарегистрирован»).
 */
function ReceiptEvent({ data, receipts }: { data: Record<string, unknown>; receipts: CardReceipt[] }) {
  const t = useT()
  const receipt = receipts.find((r) => r.id === data.receipt_id)
  const status = typeof data.status === 'string' ? data.status : null
  const parts = [
    receipt ? t(`admin.receipts.kinds.${receipt.kind}`) : null,
    receipt ? formatWireMoney(receipt.total) : null,
    status ? t(`admin.receipts.statuses.${status}`) : null,
  ].filter(Boolean)
  return parts.length > 0 ? <> — {parts.join(' · ')}</> : null
}
