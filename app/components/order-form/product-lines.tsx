import { useT } from '#app/i18n/i18n-context'
import { errorId, fieldId, FIELD, qtyField } from '#app/lib/order-form/fields'
import { formatMoney } from '#app/lib/money'
import type { FieldErrors } from '#app/lib/order-form/schema'
import type { Product } from '#app/lib/view-models/game'
import { describedBy, FieldErrorText } from './field-error'

interface Props {
  products: Product[]
  quantities: Record<number, number>
  onChange: (productId: number, quantity: number) => void
  errors: FieldErrors
  hydrated: boolean
  autoFocusField: string | null
}

function ProductCard({
  product,
  quantity,
  onChange,
  errors,
  hydrated,
  autoFocus,
}: {
  product: Product
  quantity: number
  onChange: Props['onChange']
  errors: FieldErrors
  hydrated: boolean
  autoFocus: boolean
}) {
  const t = useT()
  const name = qtyField(product.id)
  const error = errors[name]
  const boundsId = `${fieldId(name)}-bounds`
  const discounted = product.discountPrice !== null && product.discountPrice < product.price
  // sold out: shown, but nothing to choose (the API refuses it too); it comes back with stock
  const soldOut = !product.inStock
  // few left (issue 50): the tile says how many, and «+» stops there rather than at a refusal
  const left = soldOut ? null : product.stockLeft
  const most =
    left !== null && left >= product.minQuantity ? Math.min(left, product.maxQuantity) : product.maxQuantity
  const step = (delta: number, event: { defaultPrevented: boolean }) => {
    // a tap the early steppers' script already stepped in the input (early-steppers.tsx)
    if (event.defaultPrevented) return
    const next = quantity + delta
    if (delta < 0) onChange(product.id, next < product.minQuantity ? 0 : next)
    else onChange(product.id, Math.min(Math.max(next, product.minQuantity), most))
  }
  // the bounds are read out with the quantity; shown only when they are not the usual «from 1»
  const usualBounds = product.minQuantity <= 1
  return (
    <li
      className={`product-card${quantity > 0 ? ' product-card--chosen' : ''}${soldOut ? ' product-card--sold-out' : ''}`}
    >
      <div className="product-card__head">
        {product.picture ? (
          <img className="product-card__picture" src={product.picture} alt="" width={24} height={24} />
        ) : null}
        <span className="product-card__title">{product.title}</span>
      </div>
      {product.amountUc !== null && !product.title.includes(String(product.amountUc)) ? (
        <span className="product-card__amount">{t('products.uc_amount', { amount: product.amountUc })}</span>
      ) : null}
      {product.gold !== null && !product.title.includes(String(product.gold)) ? (
        <span className="product-card__amount">{t('products.gold_amount', { amount: product.gold })}</span>
      ) : null}
      <p className="product-card__price">
        <span className="product-card__now">{formatMoney(product.unitPrice)}</span>
        {discounted ? (
          <>
            {' '}
            <s className="price-old">{formatMoney(product.price)}</s>{' '}
            <span className="badge">−{product.discountPercent}%</span>
          </>
        ) : null}
      </p>
      {soldOut ? (
        <span className="badge badge--muted">{t('products.out_of_stock')}</span>
      ) : left !== null ? (
        <span className="product-card__left" data-testid="stock-left">
          {t('products.stock_left', { count: left })}
        </span>
      ) : null}
      <div className="stepper">
        <button
          type="button"
          className="stepper__button"
          onClick={(e) => step(-1, e)}
          disabled={!hydrated || soldOut || quantity <= 0}
          aria-label={t('products.decrease', { title: product.title })}
          aria-controls={fieldId(name)}
        >
          −
        </button>
        <label htmlFor={fieldId(name)} className="visually-hidden">
          {t('products.quantity_label', { title: product.title })}
        </label>
        <input
          id={fieldId(name)}
          className="stepper__input"
          type="number"
          name={name}
          inputMode="numeric"
          min={0}
          max={most}
          // the early steppers' script starts a pack at its minimum (early-steppers.tsx)
          data-min={product.minQuantity > 1 ? product.minQuantity : undefined}
          step={1}
          value={quantity}
          disabled={soldOut}
          onChange={(e) => {
            const n = e.currentTarget.valueAsNumber
            onChange(product.id, Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0)
          }}
          // biome-ignore lint/a11y/noAutofocus: the first invalid field after a refused submission, also without JavaScript
          autoFocus={autoFocus}
          {...describedBy(name, error, boundsId)}
        />
        <button
          type="button"
          className="stepper__button"
          onClick={(e) => step(1, e)}
          disabled={!hydrated || soldOut || quantity >= most}
          aria-label={t('products.increase', { title: product.title })}
          aria-controls={fieldId(name)}
        >
          +
        </button>
      </div>
      <span className={usualBounds ? 'visually-hidden' : 'product-card__bounds'} id={boundsId}>
        {t('products.quantity_bounds', { min: product.minQuantity, max: product.maxQuantity })}
      </span>
      <FieldErrorText name={name} error={error} />
    </li>
  )
}

/** The packs of a game as a grid of tiles, each with a quantity stepper (− / number / +). */
export function ProductLines({ products, quantities, onChange, errors, hydrated, autoFocusField }: Props) {
  const t = useT()
  const groupError = errors[FIELD.products]
  return (
    <fieldset
      className="product-lines"
      aria-describedby={groupError ? errorId(FIELD.products) : undefined}
      id={fieldId(FIELD.products)}
      tabIndex={-1}
    >
      <legend className="product-lines__legend">{t('products.products_heading')}</legend>
      <ul className="product-grid">
        {products.map((p) => (
          <ProductCard
            key={p.id}
            product={p}
            quantity={quantities[p.id] ?? 0}
            onChange={onChange}
            errors={errors}
            hydrated={hydrated}
            autoFocus={autoFocusField === qtyField(p.id)}
          />
        ))}
      </ul>
      <FieldErrorText name={FIELD.products} error={groupError} />
    </fieldset>
  )
}
