import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Field as FormField } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { formatAmount, toMoney } from '#app/lib/money'
import type { Order } from '#app/lib/view-models/order'
import type { EditActionData, EditFieldName, OrderEditData, PayActionData } from './types'

/**
 * «Изменить заказ» on the payment page of an unpaid order: its products and quantities (or the
 * Steam amount) and where it goes. A native <details>, so it opens without JavaScript; it stays
 * open to show a refusal. Each form posts to the page's action (order-edit.server.ts), which checks
 * what was typed (noValidate: the shop's Russian messages, not the browser's).
 */
export function OrderEdit({
  order,
  edit,
}: {
  order: Order
  /** null: the order cannot change now (a payment is under way) */
  edit: OrderEditData | null
}) {
  const t = useT()
  const navigation = useNavigation()
  // the page's last form answer: the editor's own, or another form's (then ignored)
  const actionData = useActionData<PayActionData>()
  if (!edit) return null
  const state =
    actionData?.intent === 'edit_lines' ||
    actionData?.intent === 'edit_amount' ||
    actionData?.intent === 'edit_delivery'
      ? actionData
      : null
  const busy =
    navigation.state !== 'idle' && String(navigation.formData?.get('intent') ?? '').startsWith('edit_')
  const refused = state && (state.error || Object.keys(state.fieldErrors).length > 0)
  const value = (name: string, fallback: string) => state?.values[name] ?? fallback
  const errorOf = (intent: EditActionData['intent'], name: EditFieldName) =>
    state?.intent === intent ? state.fieldErrors[name] : undefined
  const general = (intent: EditActionData['intent']) =>
    state?.intent === intent && state.error ? (
      <p className="form-error" role="alert">
        {state.error}
      </p>
    ) : null
  const a = order.account

  return (
    <section className="card pay-card pay-edit" aria-labelledby="order-edit-heading">
      <details open={refused ? true : undefined}>
        <summary className="pay-edit__summary">
          <h2 id="order-edit-heading">{t('payment.edit.heading')}</h2>
        </summary>
        <p className="pay-muted">{t('payment.edit.hint')}</p>

        {edit.products.length > 0 ? (
          <Form method="post" noValidate className="pay-edit__form" aria-labelledby="order-edit-lines">
            <input type="hidden" name="intent" value="edit_lines" />
            <h3 id="order-edit-lines">{t('payment.edit.lines_heading')}</h3>
            <ul className="pay-edit__lines">
              {edit.products.map((p) => {
                const name = `qty_${p.id}` as const
                const id = `edit-${name}`
                const current = order.lines.find((l) => l.productId === p.id)?.quantity ?? 0
                const error = errorOf('edit_lines', name)
                return (
                  <li key={p.id} className="pay-edit__line">
                    <label htmlFor={id}>
                      <span className="pay-edit__title">{p.title}</span>
                      <span className="pay-muted">{formatAmount(p.unitPrice)}</span>
                    </label>
                    <input
                      id={id}
                      name={name}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={p.maxQuantity || undefined}
                      defaultValue={value(name, String(current))}
                      aria-label={t('payment.edit.quantity', { title: p.title })}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                    />
                    {error ? (
                      <p id={`${id}-error`} className="field__error" role="alert">
                        {error}
                      </p>
                    ) : null}
                  </li>
                )
              })}
            </ul>
            {general('edit_lines')}
            <button type="submit" className="button" disabled={busy}>
              {t('payment.edit.save_lines')}
            </button>
          </Form>
        ) : null}

        {order.steam ? (
          <Form method="post" noValidate className="pay-edit__form">
            <input type="hidden" name="intent" value="edit_amount" />
            <Field
              name="amount"
              label={t('payment.edit.amount')}
              inputMode="decimal"
              defaultValue={value('amount', toMoney(order.steam.amount))}
              error={errorOf('edit_amount', 'amount')}
            />
            {general('edit_amount')}
            <button type="submit" className="button" disabled={busy}>
              {t('payment.edit.save_amount')}
            </button>
          </Form>
        ) : null}

        <Form method="post" noValidate className="pay-edit__form" aria-labelledby="order-edit-delivery">
          <input type="hidden" name="intent" value="edit_delivery" />
          <h3 id="order-edit-delivery">{t('payment.edit.delivery_heading')}</h3>
          {order.kind === 'StandoffOrder' ? (
            <Field
              name="game_account_id"
              label={t('payment.account.game_account_id')}
              defaultValue={value('game_account_id', a.gameAccountId ?? '')}
              error={errorOf('edit_delivery', 'game_account_id')}
            />
          ) : null}
          {order.kind === 'SteamOrder' ? (
            <Field
              name="steam_account_id"
              label={t('payment.account.steam_account_id')}
              defaultValue={value('steam_account_id', a.steamAccountId ?? '')}
              error={errorOf('edit_delivery', 'steam_account_id')}
            />
          ) : null}
          {order.kind === 'MooGoldOrder' ? (
            <>
              <Field
                name="moogold_user_id"
                label={t('payment.account.supply_user_id')}
                defaultValue={value('moogold_user_id', a.supplyUserId ?? '')}
                error={errorOf('edit_delivery', 'moogold_user_id')}
              />
              {edit.serverNeeded && edit.serverEnum ? (
                <ServerSelect
                  servers={edit.servers}
                  current={value('moogold_server', a.supplyServerId === null ? '' : String(a.supplyServerId))}
                  error={errorOf('edit_delivery', 'moogold_server')}
                />
              ) : edit.serverNeeded ? (
                <Field
                  name="moogold_server_custom_id"
                  label={t('payment.account.supply_server')}
                  defaultValue={value('moogold_server_custom_id', a.supplyServer ?? '')}
                  error={errorOf('edit_delivery', 'moogold_server_custom_id')}
                />
              ) : null}
            </>
          ) : null}
          <Field
            name="email"
            type="email"
            label={t('payment.edit.email')}
            defaultValue={value('email', a.email ?? '')}
            error={errorOf('edit_delivery', 'email')}
          />
          {general('edit_delivery')}
          <button type="submit" className="button" disabled={busy}>
            {t('payment.edit.save_delivery')}
          </button>
        </Form>
      </details>
    </section>
  )
}

function Field({
  name,
  label,
  defaultValue,
  error,
  type = 'text',
  inputMode,
}: {
  name: string
  label: string
  defaultValue: string
  error: string | undefined
  type?: 'text' | 'email'
  inputMode?: 'decimal'
}) {
  return (
    <FormField
      id={`edit-${name}`}
      label={label}
      error={error}
      announce
      name={name}
      type={type}
      inputMode={inputMode ?? (type === 'email' ? 'email' : undefined)}
      autoComplete={type === 'email' ? 'email' : 'off'}
      defaultValue={defaultValue}
      maxLength={254}
    />
  )
}

function ServerSelect({
  servers,
  current,
  error,
}: {
  servers: OrderEditData['servers']
  current: string
  error: string | undefined
}) {
  const t = useT()
  return (
    <FormField id="edit-moogold_server" label={t('payment.account.supply_server')} error={error} announce>
      {(control) => (
        <select {...control} name="moogold_server" defaultValue={current}>
          {servers.map((s) => (
            <option key={s.id} value={String(s.id)}>
              {s.name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}
