// The order form of a game page (§1, §5): products and quantities, what the game kind needs,
// the email, live totals, and a submit that works with and without JavaScript.
import { Form, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { type FormEvent, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { ConsentField } from '#app/components/consent-field'
import { useT } from '#app/i18n/i18n-context'
import { consumeCartClearSignal } from '#app/lib/api/cart-signal'
import { clearCart, gameQuantities, readCart, saveGameQuantities } from '#app/lib/cart'
import { FIELD, fieldId, qtyField } from '#app/lib/order-form/fields'
import { parseMoney } from '#app/lib/money'
import type { FieldError, FieldErrors, OrderFormRules } from '#app/lib/order-form/schema'
import { cartTotals, clampQuantity, steamTotals } from '#app/lib/order-form/totals'
import { toCartLines } from '#app/lib/order-form/view-model'
import { activeProducts } from '#app/lib/view-models/game'
import { useErrorText } from './field-error'
import { EmailField, StandoffFields, SteamFields, SupplyFields } from './kind-fields'
import {
  type LiveAnswer,
  LivePlayerCheck,
  PlayerConfirm,
  type PlayerInputs,
  playerKeyOf,
} from './player-check'
import type { ActionResult, Prefill, ProductLoaderData } from './product-page.server'
import { OrderBar } from './order-bar'
import { ProductLines } from './product-lines'
import { CartTotalsBox, SteamTotalsBox } from './totals-box'
import { useHydrated } from '#app/lib/use-hydrated'

type Validator = typeof import('#app/lib/order-form/schema')

/** A layout effect in the browser (none runs on the server, which would warn about one). */
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

/** Longest a submit waits for the live player check before the action is left to ask. */
const PLAYER_WAIT_MS = 6000

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
    FIELD.consent,
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

/** The id and server fields as the form holds them now. */
function playerInputsOf(form: HTMLFormElement, kind: string): PlayerInputs {
  const f = new FormData(form)
  const text = (n: string) => String(f.get(n) ?? '')
  return {
    userId: text(kind === 'Steam' ? FIELD.steamAccountId : FIELD.userId),
    serverId: text(FIELD.serverId),
    serverCustomId: text(FIELD.serverCustomId),
  }
}

/**
 * The quantities and the Steam amount as the form's inputs hold them: the quantities only when
 * one differs from what the server rendered (the shopper typed), else null.
 */
function typedBeforeHydration(
  form: HTMLFormElement,
  products: Array<{ id: number }>,
  rendered: Record<number, number>,
): { quantities: Record<number, number> | null; amount: string | null } {
  const value = (name: string) => {
    const el = form.elements.namedItem(name)
    return el instanceof HTMLInputElement ? el.value : null
  }
  const quantities: Record<number, number> = {}
  let changed = false
  for (const p of products) {
    const text = value(qtyField(p.id))
    if (text == null) {
      quantities[p.id] = rendered[p.id] ?? 0
      continue
    }
    const n = Number(text)
    quantities[p.id] = Number.isSafeInteger(n) && n > 0 ? n : 0
    if (quantities[p.id] !== (rendered[p.id] ?? 0)) changed = true
  }
  return { quantities: changed ? quantities : null, amount: value(FIELD.amount) }
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
  const [playerInputs, setPlayerInputs] = useState<PlayerInputs>({
    userId: (game.kind === 'Steam' ? start.steamAccountId : start.userId) ?? '',
    serverId: start.serverId ?? '',
    serverCustomId: start.serverCustomId ?? '',
  })
  const playerComplete =
    playerInputs.userId.trim() !== '' &&
    (rules.server.mode !== 'enum' || playerInputs.serverId !== '') &&
    (rules.server.mode !== 'custom' || playerInputs.serverCustomId.trim() !== '')
  const playerInputsRef = useRef(playerInputs)
  playerInputsRef.current = playerInputs
  const playerCompleteRef = useRef(playerComplete)
  playerCompleteRef.current = playerComplete
  const playerField = game.kind === 'Steam' ? FIELD.steamAccountId : FIELD.userId
  const restored = useRef(false)
  const validator = useRef<Validator | null>(null)
  // the live player check's answer, and a submit waiting for it
  const live = useRef<LiveAnswer | null>(null)
  const waitingForPlayer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const inFlight = useRef(false)
  // the form's own steppers take taps (rendered as `data-live`, which the early steppers' script
  // leaves the taps to): set in the commit that hydrates the form, see below
  const [formLive, setFormLive] = useState(false)

  // What the shopper typed or stepped before the page's JavaScript started is in the DOM, not in
  // React's state (hydration leaves a typed value in place, the next render would put the state
  // back): the state starts from the DOM. Only then the stored cart (§3) comes back, and only when
  // this render carries no quantities of its own and nothing was typed. A layout effect, so no tap
  // falls between (issue 50): it runs in the commit that hydrates the form, and its state updates
  // are rendered and committed in the same task, before the browser hands over the next tap; until
  // then the early steppers' script steps the inputs, from then on the form's own buttons do.
  // (once per game page, with what it started from)
  useBrowserLayoutEffect(() => {
    setFormLive(true)
    if (consumeCartClearSignal()) clearCart()
    const typed = formRef.current ? typedBeforeHydration(formRef.current, products, startQuantities) : null
    if (typed?.quantities) setQuantities(typed.quantities)
    if (typed?.amount != null && typed.amount !== (start.amount ?? '')) setAmountText(typed.amount)
    // an id typed before the scripts started is checked like one typed after
    if (game.playerCheck && formRef.current) {
      const typedPlayer = playerInputsOf(formRef.current, game.kind)
      if (playerKeyOf(typedPlayer) !== playerKeyOf(playerInputsRef.current)) setPlayerInputs(typedPlayer)
    }
    if (!posted && !prefill.quantities && !typed?.quantities) {
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
  }, [game.id])

  useEffect(() => {
    // the shared schema is loaded when the browser is idle: it is not needed for the first paint
    const load = () => {
      import('#app/lib/order-form/schema').then((m) => {
        validator.current = m
      })
    }
    const w = window as Window & { requestIdleCallback?: (cb: () => void) => number }
    if (w.requestIdleCallback) w.requestIdleCallback(load)
    else setTimeout(load, 200)
  }, [])

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
      // a checked game: the order waits for the live answer about the id (a few hundred ms)
      if (game.playerCheck && playerCompleteRef.current) {
        const answer = live.current
        if (!answer || answer.key !== playerKeyOf(playerInputsRef.current)) {
          event.preventDefault()
          if (!waitingForPlayer.current) {
            const form = event.currentTarget
            // a check that never answers must not block buying: the action asks instead
            waitingForPlayer.current = setTimeout(() => {
              waitingForPlayer.current = null
              live.current = { state: 'none', key: playerKeyOf(playerInputsRef.current) }
              form.requestSubmit()
            }, PLAYER_WAIT_MS)
          }
          return
        }
        if (answer.state === 'refused') {
          event.preventDefault()
          setErrors({ [playerField]: { key: '', text: answer.message } })
          setFocusTick((n) => n + 1)
          return
        }
      }
      setErrors({})
      inFlight.current = true
    },
    [rules, game.playerCheck, playerField],
  )

  const onLiveAnswer = useCallback((answer: LiveAnswer | null) => {
    live.current = answer
    if (answer && waitingForPlayer.current) {
      clearTimeout(waitingForPlayer.current)
      waitingForPlayer.current = null
      formRef.current?.requestSubmit()
    }
  }, [])

  const onQuantity = useCallback((productId: number, quantity: number) => {
    setQuantities((q) => ({ ...q, [productId]: quantity }))
    setErrors((e) => {
      const name = qtyField(productId)
      if (!e[name] && !e[FIELD.products]) return e
      const { [name]: _, [FIELD.products]: __, ...rest } = e
      return rest
    })
  }, [])

  // the live player check follows the id and server fields
  const onFormInput = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      const name = (event.target as { name?: string }).name
      const watched: string[] = [FIELD.userId, FIELD.serverId, FIELD.serverCustomId, FIELD.steamAccountId]
      if (!game.playerCheck || !name || !watched.includes(name)) return
      setPlayerInputs(playerInputsOf(event.currentTarget, game.kind))
    },
    [game.playerCheck, game.kind],
  )
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
  // the nickname (or why the id is refused) right under the id: live with JavaScript, else the
  // action's confirmation step (the first submit's answer)
  const livePlayerCheck = (
    <>
      {hydrated && game.playerCheck ? (
        <LivePlayerCheck
          gameId={game.id}
          inputs={playerInputs}
          complete={playerComplete}
          onAnswer={onLiveAnswer}
        />
      ) : game.playerCheck ? (
        // the live answer's line, kept empty until the scripts start: nothing below moves (issue 50)
        <p className="player-check" />
      ) : null}
      {actionData?.player ? <PlayerConfirm player={actionData.player} busy={busy} /> : null}
    </>
  )

  return (
    <Form
      ref={formRef}
      method="post"
      encType={game.kind === 'StandoffGame' ? 'multipart/form-data' : undefined}
      className="order-form"
      data-live={formLive ? '' : undefined}
      noValidate
      onSubmit={onSubmit}
      onInput={onFormInput}
      onChange={onFormInput}
      aria-labelledby="order-form-heading"
      aria-busy={busy || undefined}
    >
      <h2 id="order-form-heading">{t('top_up_balance.form_heading')}</h2>
      <input type="hidden" name={FIELD.idempotencyKey} value={key} />
      {loaderData.repeating ? (
        // the repeated order's payment method, checked again on the new order's pay page (issue 50)
        <input
          type="hidden"
          name={FIELD.repeatMethod}
          value={(posted ? posted[FIELD.repeatMethod] : prefill.repeatMethod) ?? ''}
        />
      ) : null}
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
          hydrated={formLive}
          autoFocusField={autoFocusField}
        />
      ) : null}

      {game.kind !== 'PUBGGame' ? (
        <fieldset className="order-form__account">
          <legend>{t('top_up_balance.account_heading')}</legend>
          {game.kind === 'SupplyGame' ? (
            <SupplyFields
              {...fieldProps}
              playerCheck={livePlayerCheck}
              servers={game.servers}
              serverMode={rules.server.mode}
              values={start}
            />
          ) : null}
          {game.kind === 'StandoffGame' ? (
            <StandoffFields
              {...fieldProps}
              playerCheck={livePlayerCheck}
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
            <SteamFields
              {...fieldProps}
              playerCheck={livePlayerCheck}
              values={start}
              bounds={rules.steamAmount}
              onAmount={setAmountText}
            />
          ) : null}
        </fieldset>
      ) : null}

      <EmailField {...fieldProps} defaultValue={email} required={rules.emailRequired} signedIn={signedIn} />
      {rules.consentRequired ? (
        <ConsentField
          id={fieldId(FIELD.consent)}
          error={errors[FIELD.consent] ? errorText(errors[FIELD.consent]!) : null}
          defaultChecked={posted?.[FIELD.consent] === 'on'}
          autoFocus={autoFocusField === FIELD.consent}
        />
      ) : null}

      <OrderBar
        pick={game.kind === 'Steam' ? null : { products, quantities, live: formLive }}
        totals={
          game.kind === 'Steam' ? (
            <SteamTotalsBox
              amount={amount}
              commission={steamSum.commission}
              commissionBp={steam?.commissionBp ?? 0}
              total={steamSum.total}
            />
          ) : (
            <CartTotalsBox totals={totals} />
          )
        }
      >
        <button type="submit" className="button button--primary order-form__submit" disabled={busy}>
          {busy
            ? t('top_up_balance.submitting')
            : loaderData.repeating
              ? t('top_up_balance.submit_repeat')
              : t('top_up_balance.submit')}
        </button>
      </OrderBar>
    </Form>
  )
}
