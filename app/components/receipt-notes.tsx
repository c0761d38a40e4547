// The fiscal receipts of an order (54-ФЗ, issue 33), on the order's page and in the order history:
// «Чек отправлен на {email} (предоплата 100 % | полный расчёт)» with its status and, once the cash register registered it, the
// fiscal attributes (ФН, ФД, ФП, the time).
import type { components } from '#openapi/schema'
import { useT } from '#app/i18n/i18n-context'

type Receipt = components['schemas']['OrderReceipt']

export function ReceiptNotes({ receipts, className }: { receipts: Receipt[]; className: string }) {
  const t = useT()
  if (receipts.length === 0) return null
  return (
    <div className={className} data-testid="order-receipts">
      {receipts.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: receipts come in their order and never move
        <p key={i} data-receipt-status={r.status}>
          {r.status === 'failed'
            ? t('legal.receipt.failed', { email: r.email })
            : `${t(`legal.receipt.${r.kind}`, { email: r.email })}${
                // which is which (decision 059): the advance when paid, the settlement at delivery
                r.payment_method ? ` (${t(`legal.receipt.method_${r.payment_method}`)})` : ''
              } — ${t(`legal.receipt.status_${r.status}`)}`}
          {r.fiscal ? (
            <>
              <br />
              <span className="receipt-fiscal">
                {t('legal.receipt.fiscal', {
                  fn: r.fiscal.fn_number,
                  fd: r.fiscal.fiscal_document_number,
                  fp: r.fiscal.fiscal_document_attribute,
                  time: r.fiscal.receipt_datetime,
                })}
              </span>
            </>
          ) : null}
        </p>
      ))}
    </div>
  )
}
