// The order form of a game page (§1, §5): products and quantities, what the game kind needs,
// the email, live totals, and a submit that works with and without JavaScript.
import { Form, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { consumeCartClearSignal } from '#app/lib/api/cart-signal'
import { clearCart, gameQuantities, readCart, saveGameQuantities } from '#app/lib/cart'
import { FIELD, fieldId, qtyField } from '#app/lib/order-form/fields'
import { parseMoney } from '#app/lib/order-form/money'
import type { FieldError, FieldErrors, OrderFormRules } from '#app/lib/order-form/schema'
import { cartTotals, clampQuantity, steamTotals } from '#app/lib/order-form/totals'
import { toCartLines } from '#app/lib/order-form/view-model'
import { activeProducts } from '#app/lib/view-models/game'
import { useErrorText } from './field-error'
import { EmailField, StandoffFields, SteamFields, SupplyFields } from './kind-fields'
import type { ActionResult, Prefill, ProductLoaderData } from './product-page.server'
import { ProductLines } from './product-lines'
import { CartTotalsBox, SteamTotalsBox } from './totals-box'
import { useHydrated } from './use-hydrated'

type Validator = typeof import('#app/lib/order-form/schema')

interface RootUser {
  email?: string | null
  balance?: string | null
}

/** The form's fields in page order (products, account data, email). */
function fieldOrder(rules: OrderFormRules): string[] {
  return [
    ...rules.products.map((p) => qtyField(p.id)),
    FIELD.products,
    FIELD.userId,
    FIELD.serverId,
    FIELD.serverCustomId,
    FIELD.avatar,
    FIELD.steamAccountId,
    FIELD.amount,
    FIELD.email,
  ]
}

/** Errors in page order, so the summary reads like the form. */
export function orderedErrors(errors: FieldErrors, rules: OrderFormRules): Array<[string, FieldError]> {
  const order = fieldOrder(rules)
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length)
  return Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b))
}

/** The input a field's error points to ("choose a product" points at the first quantity). */
function targetOf(name: string, rules: OrderFormRules): string {
  return name === FIELD.products && rules.products[0] ? qtyField(rules.products[0].id) : name
}

/** The field to focus first: the first invalid one in the form's order. */
export function firstInvalidField(errors: FieldErrors, rules: OrderFormRules): string | null {
  const first = orderedErrors(errors, rules)[0]
  return first ? targetOf(first[0], rules) : null
}

/** A page with an open popup locks scrolling on <body>; leaving for the payment page frees it (§2). */
function clearScrollLock() {
  document.body.style.removeProperty('overflow')
  document.body.style.removeProperty('padding-right')
}

function quantitiesFrom(values: Record<string, string> | undefined, rules: OrderFormRules) {
  const out: Record<number, number> = {}
  for (const p of rules.products) {
    const n = Number(values?.[qtyField(p.id)] ?? 0)
    out[p.id] = Number.isSafeInteger(n) && n > 0 ? n : 0
  }
  return out
}

export function OrderForm({
  loaderData,
  actionData,
}: {
  loaderData: ProductLoaderData
  actionData: ActionResult | undefined
}) {
  const t = useT()
  const errorText = useErrorText()
  const { game, rules, standoff, steam, signedIn, prefill } = loaderData
  const root = useRouteLoaderData('root') as { user?: RootUser | null } | undefined
  const user = root?.user ?? null
  const products = useMemo(() => activeProducts(game), [game])
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)

  // what the form shows first: what was just posted, else the prefill (repeat / last order)
  const posted = actionData?.values
  const start: Prefill = posted
    ? {
        email: posted[FIELD.email],
        userId: posted[FIELD.userId],
        serverId: posted[FIELD.serverId],
        serverCustomId: posted[FIELD.serverCustomId],
        steamAccountId: posted[FIELD.steamAccountId],
        amount: posted[FIELD.amount],
        avatarUrl: prefill.avatarUrl,
        repeatOrderId: posted[FIELD.repeatOrderId] || prefill.repeatOrderId,
      }
    : prefill
  const startQuantities = posted
    ? quantitiesFrom(posted, rules)
    : prefill.quantities
      ? quantitiesFrom(
          Object.fromEntries(
            Object.entries(prefill.quantities).map(([k, v]) => [qtyField(Number(k)), String(v)]),
          ),
          rules,
        )
      : quantitiesFrom(undefined, rules)

  const [quantities, setQuantities] = useState<Record<number, number>>(startQuantities)
  const [amountText, setAmountText] = useState(start.amount ?? '')
  const [errors, setErrors] = useState<FieldErrors>(actionData?.errors ?? {})
  const [focusTick, setFocusTick] = useState(0)
  const restored = useRef(false)
  const validator = useRef<Validator | null>(null)
  const inFlight = useRef(false)

  // the stored cart (§3) comes back after hydration, unless this render carries its own quantities
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per game page, with what it started from
  useEffect(() => {
    if (consumeCartClearSignal()) clearCart()
    if (!posted && !prefill.quantities) {
      const stored = gameQuantities(readCart(), game.id)
      if (stored.size > 0) {
        const next: Record<number, number> = {}
        for (const p of products) {
          next[p.id] = clampQuantity(stored.get(p.id) ?? 0, p.minQuantity, p.maxQuantity)
        }
        setQuantities(next)
      }
    }
    restored.current = true
    // the shared schema is loaded when the browser is idle: it is not needed for the first paint
    const load = () => {
      import('#app/lib/order-form/schema').then((m) => {
        validator.current = m
      })
    }
    const w = window as Window & { requestIdleCallback?: (cb: () => void) => number }
    if (w.requestIdleCallback) w.requestIdleCallback(load)
    else setTimeout(load, 200)
  }, [game.id])

  useEffect(() => {
    if (restored.current)
      saveGameQuantities(
        game.id,
        Object.entries(quantities).map(([k, v]) => [Number(k), v]),
      )
  }, [quantities, game.id])

  // a new answer from the action replaces the errors shown
  useEffect(() => {
    if (!actionData) return
    setErrors(actionData.errors)
    inFlight.current = false
    setFocusTick((n) => n + 1)
  }, [actionData])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a focus is requested, with the errors of that moment
  useEffect(() => {
    if (focusTick === 0) return
    const name = firstInvalidField(errors, rules)
    if (name) document.getElementById(fieldId(name))?.focus()
    else if (actionData?.formError) document.getElementById('order-form-error')?.focus()
  }, [focusTick])

  const busy =
    navigation.state === 'submitting' || (navigation.state === 'loading' && navigation.formMethod != null)
  useEffect(() => {
    if (navigation.state === 'idle') inFlight.current = false
    if (navigation.state === 'loading' && /^\/orders\/[^/]+\/pay\/?$/.test(navigation.location.pathname)) {
      clearScrollLock()
    }
  }, [navigation.state, navigation.location])

  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      // the order-in-progress flag (§4): one submission at a time
      if (inFlight.current) {
        event.preventDefault()
        return
      }
      const v = validator.current
      if (v) {
        const result = v.validateOrderForm(rules, v.formEntries(new FormData(event.currentTarget)))
        if (!result.ok) {
          event.preventDefault()
          setErrors(result.errors)
          setFocusTick((n) => n + 1)
          return
        }
      }
      setErrors({})
      inFlight.current = true
    },
    [rules],
  )

  const onQuantity = useCallback((productId: number, quantity: number) => {
    setQuantities((q) => ({ ...q, [productId]: quantity }))
    setErrors((e) => {
      const name = qtyField(productId)
      if (!e[name] && !e[FIELD.products]) return e
      const { [name]: _, [FIELD.products]: __, ...rest } = e
      return rest
    })
  }, [])

  const balance = signedIn ? (parseMoney(user?.balance ?? '0') ?? 0) : 0
  const totals = cartTotals(toCartLines(products, quantities), balance)
  const amount = parseMoney(amountText) ?? 0
  const steamSum = steamTotals(amount, steam?.commissionBp ?? 0)
  const goldTotal = products.reduce((sum, p) => sum + (p.gold ?? 0) * (quantities[p.id] ?? 0), 0)
  const errorList = orderedErrors(errors, rules)
  const autoFocusField = !hydrated && actionData ? firstInvalidField(actionData.errors, rules) : null
  const fieldProps = { errors, autoFocusField }
  const email = start.email ?? user?.email ?? ''
  const key = actionData?.idempotencyKey ?? loaderData.idempotencyKey

  return (
    <Form
      ref={formRef}
      method="post"
      encType={game.kind === 'StandoffGame' ? 'multipart/form-data' : undefined}
      className="order-form"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="order-form-heading"
      aria-busy={busy || undefined}
    >
      <h2 id="order-form-heading">{t('top_up_balance.form_heading')}</h2>
      <input type="hidden" name={FIELD.idempotencyKey} value={key} />
      <div className="order-form__summary" aria-live="assertive">
        {actionData?.formError ? (
          <p className="form-error" id="order-form-error" role="alert" tabIndex={-1}>
            {actionData.formError}
          </p>
        ) : null}
        {errorList.length > 0 ? (
          <div className="error-summary" role="alert">
            <p>{t('top_up_balance.errors_summary')}</p>
            <ul>
              {errorList.map(([name, error]) => (
                <li key={name}>
                  <a href={`#${fieldId(targetOf(name, rules))}`}>{errorText(error)}</a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>

      {game.kind !== 'Steam' ? (
        <ProductLines
          products={products}
          quantities={quantities}
          onChange={onQuantity}
          errors={errors}
          hydrated={hydrated}
          autoFocusField={autoFocusField}
        />
      ) : null}

      {game.kind !== 'PUBGGame' ? (
        <fieldset className="order-form__account">
          <legend>{t('top_up_balance.account_heading')}</legend>
          {game.kind === 'SupplyGame' ? (
            <SupplyFields
              {...fieldProps}
              servers={game.servers}
              serverMode={rules.server.mode}
              values={start}
            />
          ) : null}
          {game.kind === 'StandoffGame' ? (
            <StandoffFields
              {...fieldProps}
              values={start}
              settings={standoff}
              surplus={
                posted && /^0\.(?:[01]\d|2[0-3])$/.test(posted[FIELD.surplus] ?? '')
                  ? posted[FIELD.surplus]!
                  : loaderData.surplus
              }
              goldTotal={goldTotal}
            />
          ) : null}
          {game.kind === 'Steam' ? (
            <SteamFields {...fieldProps} values={start} bounds={rules.steamAmount} onAmount={setAmountText} />
          ) : null}
        </fieldset>
      ) : null}

      <EmailField {...fieldProps} defaultValue={email} required={rules.emailRequired} signedIn={signedIn} />

      {game.kind === 'Steam' ? (
        <SteamTotalsBox
          amount={amount}
          commission={steamSum.commission}
          commissionBp={steam?.commissionBp ?? 0}
          total={steamSum.total}
        />
      ) : (
        <CartTotalsBox totals={totals} />
      )}

      <button type="submit" className="button button--primary order-form__submit" disabled={busy}>
        {busy
          ? t('top_up_balance.submitting')
          : loaderData.repeating
            ? t('top_up_balance.submit_repeat')
            : t('top_up_balance.submit')}
      </button>
    </Form>
  )
}
