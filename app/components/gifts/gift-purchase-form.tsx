import { Form, useActionData, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { formatMoney } from '#app/lib/order-form/money'
import type { GiftDetail } from '#app/lib/view-models/gift'
import type { RootLoaderData } from '#app/root'
import type { PurchaseActionData } from './gift-purchase.server'
import { PURCHASE_FIELD } from './purchase-fields'

/** The signed-in user's email from the root loader (null for guests). */
function useAccountEmail(): string | null {
  const root = useRouteLoaderData('root') as RootLoaderData | undefined
  return root?.user?.email ?? null
}

/**
 * Buys a gift: a plain POST form (works without JavaScript) with the email and a hidden
 * idempotency key; the action creates the order and redirects to its payment page.
 */
export function GiftPurchaseForm({ gift, idempotencyKey }: { gift: GiftDetail; idempotencyKey: string }) {
  const t = useT()
  const actionData = useActionData<PurchaseActionData>()
  const navigation = useNavigation()
  const accountEmail = useAccountEmail()
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post'
  const emailError = actionData?.field === 'email'
  const price = formatMoney(gift.currentPrice, t('common.currency'))
  return (
    <Form method="post" className="gift-purchase card" aria-labelledby="gift-purchase-heading">
      <h2 id="gift-purchase-heading">{t('gifts.purchase.heading')}</h2>
      <input type="hidden" name={PURCHASE_FIELD.idempotencyKey} value={idempotencyKey} />
      <div className="field">
        <label htmlFor="gift-email">{t('gifts.purchase.email_label')}</label>
        <input
          id="gift-email"
          name={PURCHASE_FIELD.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          required={accountEmail === null}
          defaultValue={actionData?.email ?? accountEmail ?? ''}
          aria-invalid={emailError || undefined}
          aria-describedby={emailError ? 'gift-email-hint gift-purchase-error' : 'gift-email-hint'}
        />
        <span id="gift-email-hint" className="field__hint">
          {t(accountEmail ? 'gifts.purchase.email_hint_account' : 'gifts.purchase.email_hint')}
        </span>
      </div>
      {actionData?.formError ? (
        <p id="gift-purchase-error" className="form-error" role="alert">
          {actionData.formError}
        </p>
      ) : null}
      {gift.inStock ? null : (
        <p id="gift-out-of-stock" className="gift-purchase__out">
          {t('gifts.purchase.out_of_stock')}
        </p>
      )}
      <button
        type="submit"
        className="button button--primary gift-purchase__submit"
        disabled={!gift.inStock || busy}
        aria-describedby={gift.inStock ? undefined : 'gift-out-of-stock'}
      >
        {busy ? t('gifts.purchase.submitting') : t('gifts.purchase.submit', { price })}
      </button>
    </Form>
  )
}
