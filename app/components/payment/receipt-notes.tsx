// «Чек отправлен на {email}» for each fiscal receipt of the order (54-ФЗ, issue 33), with its
// fiscal attributes (ФН, ФД, ФП, the time) once the cash register registered it.
import { useT } from '#app/i18n/i18n-context'
import type { PayPageData } from './types'

export function ReceiptNotes({ receipts }: { receipts: PayPageData['receipts'] }) {
  const t = useT()
  if (receipts.length === 0) return null
  return (
    <div className="card pay-receipts" data-testid="order-receipts">
      {receipts.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: receipts come in their order and never move
        <p key={i}>
          {t(r.kind === 'sell' ? 'legal.receipt.sell' : 'legal.receipt.sell_refund', { email: r.email })}
          {r.fiscal ? (
            <>
              <br />
              <span className="pay-muted">
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
