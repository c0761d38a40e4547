// One fiscal receipt (54-ФЗ) as an accountant reads it: kind and status, seller, lines with VAT and
// payment object/method in words, totals in roubles, ФН/ФД/ФП with the registration time in the
// shop's zone, and the fiscal data operator's page of the check when the cash register named one.
// Shared by /admin/receipts and the order card.
import { Link } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { formatWireMoney } from '#app/lib/money'
import { useWhen } from '#app/lib/shop-time'
import type { components } from '#openapi/schema'
import { formatOrderNumber } from '../../../shared/order-number'

export type AdminReceipt = components['schemas']['AdminReceiptView']

export function ReceiptCard({
  receipt: r,
  showOrder = true,
  headingLevel = 2,
}: {
  receipt: AdminReceipt
  showOrder?: boolean
  headingLevel?: 2 | 3
}) {
  const t = useT()
  const when = useWhen()
  const H = headingLevel === 2 ? 'h2' : 'h3'
  const Sub = headingLevel === 2 ? 'h3' : 'h4'
  const headingId = `receipt-${r.id}`
  return (
    <article className="card admin-receipt" aria-labelledby={headingId} data-testid="admin-receipt">
      <H id={headingId} className="admin-receipt__title">
        {t(`admin.receipts.kinds.${r.kind}`)}
        <span className="field__hint"> · {t('admin.receipts.receipt', { id: r.id })}</span>
      </H>
      <p>
        <span className={`admin-status admin-status--receipt-${r.status}`}>
          {t(`admin.receipts.statuses.${r.status}`)}
        </span>
        {showOrder ? (
          <>
            {' '}
            · {t('admin.receipts.order')}{' '}
            <Link to={`/admin/orders/${r.order_id}`}>
              {r.order_number === null ? r.order_id : formatOrderNumber(r.order_number)}
            </Link>
          </>
        ) : null}{' '}
        · {t('admin.receipts.created')} {when(r.created)}
      </p>
      {r.reason ? (
        <p className="form-error">
          {t('admin.receipts.reason')}: {r.reason}
        </p>
      ) : null}

      <dl className="admin-dl">
        <div>
          <dt>{t('admin.receipts.seller')}</dt>
          <dd className="admin-break">{r.seller.name || '—'}</dd>
        </div>
        <div>
          <dt>{t('admin.receipts.inn')}</dt>
          <dd>{r.seller.inn || '—'}</dd>
        </div>
        <div>
          <dt>{t('admin.receipts.tax_system')}</dt>
          <dd>{r.seller.tax_system ? t(`admin.seller.tax.${r.seller.tax_system}`) : '—'}</dd>
        </div>
        {r.seller.payment_address ? (
          <div>
            <dt>{t('admin.receipts.payment_address')}</dt>
            <dd className="admin-break">{r.seller.payment_address}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin.receipts.buyer_email')}</dt>
          <dd className="admin-break">{r.email}</dd>
        </div>
      </dl>

      <table className="admin-table admin-table--cards admin-receipt__items">
        <caption className="visually-hidden">{t('admin.receipts.items')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.receipts.item_name')}</th>
            <th scope="col">{t('admin.receipts.item_quantity')}</th>
            <th scope="col">{t('admin.receipts.item_price')}</th>
            <th scope="col">{t('admin.receipts.item_sum')}</th>
            <th scope="col">{t('admin.receipts.item_vat')}</th>
            <th scope="col">{t('admin.receipts.item_object')}</th>
            <th scope="col">{t('admin.receipts.item_method')}</th>
          </tr>
        </thead>
        <tbody>
          {r.items.map((i, n) => (
            // lines have no id; their place in the receipt is theirs
            // biome-ignore lint/suspicious/noArrayIndexKey: the receipt's lines never reorder
            <tr key={n}>
              <th scope="row" data-label={t('admin.receipts.item_name')} className="admin-break">
                {i.name}
              </th>
              <td data-label={t('admin.receipts.item_quantity')}>{i.quantity}</td>
              <td data-label={t('admin.receipts.item_price')}>{formatWireMoney(i.price)}</td>
              <td data-label={t('admin.receipts.item_sum')}>{formatWireMoney(i.sum)}</td>
              <td data-label={t('admin.receipts.item_vat')}>
                {t(`admin.seller.vats.${i.vat}`)}
                {i.vat_sum === null ? null : <> · {formatWireMoney(i.vat_sum)}</>}
              </td>
              <td data-label={t('admin.receipts.item_object')}>
                {t(`admin.seller.objects.${i.payment_object}`)}
              </td>
              <td data-label={t('admin.receipts.item_method')}>
                {t(`admin.receipts.methods.${i.payment_method}`)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <dl className="admin-dl admin-receipt__totals">
        <div>
          <dt>{t('admin.receipts.total')}</dt>
          <dd>
            <strong>{formatWireMoney(r.total)}</strong>
          </dd>
        </div>
        {r.vat_totals.map((v) => (
          <div key={v.vat}>
            <dt>
              {v.vat_sum === null
                ? t('admin.receipts.no_vat_total')
                : t('admin.receipts.vat_total', { rate: t(`admin.seller.vats.${v.vat}`) })}
            </dt>
            <dd>{formatWireMoney(v.vat_sum ?? v.sum)}</dd>
          </div>
        ))}
      </dl>

      <Sub className="admin-receipt__sub">{t('admin.receipts.fiscal')}</Sub>
      {r.fiscal ? (
        <dl className="admin-dl">
          <div>
            <dt>{t('admin.receipts.fn')}</dt>
            <dd className="admin-mono">{r.fiscal.fn_number}</dd>
          </div>
          <div>
            <dt>{t('admin.receipts.fd')}</dt>
            <dd className="admin-mono">{r.fiscal.fiscal_document_number}</dd>
          </div>
          <div>
            <dt>{t('admin.receipts.fp')}</dt>
            <dd className="admin-mono">{r.fiscal.fiscal_document_attribute}</dd>
          </div>
          {r.registered_at ? (
            <div>
              <dt>{t('admin.receipts.registered_at')}</dt>
              <dd>{when(r.registered_at)}</dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p className="field__hint">{t('admin.receipts.no_fiscal')}</p>
      )}
      {r.ofd_url && /^https?:\/\//i.test(r.ofd_url) ? (
        <p>
          <a href={r.ofd_url} target="_blank" rel="noopener noreferrer">
            {t('admin.receipts.ofd_link')}
          </a>
        </p>
      ) : null}
    </article>
  )
}
