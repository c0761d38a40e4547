import { useT } from '#app/i18n/i18n-context'
import { formatMoney, type Kopecks } from '#app/lib/money'
import type { CartTotals } from '#app/lib/order-form/totals'
import { bpToPercentText } from './settings'

/** The live subtotal and total of a product cart (§5). */
export function CartTotalsBox({ totals }: { totals: CartTotals }) {
  const t = useT()
  return (
    <dl className="totals" aria-live="polite" aria-atomic="true">
      <div>
        <dt>{t('top_up_balance.subtotal')}</dt>
        <dd>{formatMoney(totals.subtotal)}</dd>
      </div>
      {totals.discount > 0 ? (
        <div>
          <dt>{t('top_up_balance.discount')}</dt>
          <dd>−{formatMoney(totals.discount)}</dd>
        </div>
      ) : null}
      {totals.balanceUsed > 0 ? (
        <div>
          <dt>{t('top_up_balance.balance')}</dt>
          <dd>−{formatMoney(totals.balanceUsed)}</dd>
        </div>
      ) : null}
      <div className="totals__total">
        <dt>{t('top_up_balance.total')}</dt>
        <dd>{formatMoney(totals.toPay)}</dd>
      </div>
    </dl>
  )
}

/** A Steam top-up: the amount, the commission and what is paid (shown before paying, §1). */
export function SteamTotalsBox({
  amount,
  commission,
  commissionBp,
  total,
}: {
  amount: Kopecks
  commission: Kopecks
  commissionBp: number
  total: Kopecks
}) {
  const t = useT()
  return (
    <dl className="totals" aria-live="polite" aria-atomic="true">
      <div>
        <dt>{t('top_up_balance.subtotal')}</dt>
        <dd>{formatMoney(amount)}</dd>
      </div>
      <div>
        <dt>{t('top_up_balance.commission', { percent: bpToPercentText(commissionBp) })}</dt>
        <dd>{formatMoney(commission)}</dd>
      </div>
      <div className="totals__total">
        <dt>{t('top_up_balance.total')}</dt>
        <dd>{formatMoney(total)}</dd>
      </div>
    </dl>
  )
}
