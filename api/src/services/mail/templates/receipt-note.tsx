// The receipt lines of the order mails: «Чек отправлен на {email}» and, once a cash register
// registered it, its fiscal attributes (ФН, ФД, ФП, time).
import type { ReceiptOut } from '../../receipts/view'
import { fill, M } from '../messages'
import { Muted } from './layout'

export function ReceiptNote({ receipts, kind }: { receipts: ReceiptOut[]; kind: ReceiptOut['kind'] }) {
  const shown = receipts.filter((r) => r.kind === kind && r.status !== 'failed')
  return (
    <>
      {shown.map((r) => (
        <Muted key={`${r.kind}${r.total}${r.fiscal?.fiscal_document_number ?? ''}`}>
          {fill(M.receipt[r.kind], { email: r.email })}
          {r.fiscal
            ? `. ${fill(M.receipt.fiscal, {
                fn: r.fiscal.fn_number,
                fd: r.fiscal.fiscal_document_number,
                fp: r.fiscal.fiscal_document_attribute,
                time: r.fiscal.receipt_datetime,
              })}`
            : ''}
        </Muted>
      ))}
    </>
  )
}
