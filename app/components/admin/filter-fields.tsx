// The back-office lists' search forms (orders, receipts, audit): a GET form of filter fields built
// on the form kit, so every list filters by the same markup; the page keeps its own texts and ids.
import { Link } from '@remix-run/react'
import { Field } from '#app/components/form/field'

/** A select of one filter: «any» (empty) first, then the options. */
export function SelectFilter({
  id,
  name,
  label,
  any,
  options,
  value,
}: {
  id: string
  name: string
  label: string
  /** The empty choice's text («любой»). */
  any: string
  options: ReadonlyArray<{ value: string | number; label: string }>
  value: string | number | null | undefined
}) {
  return (
    <Field id={id} label={label}>
      {(control) => (
        <select {...control} name={name} defaultValue={value ?? ''}>
          <option value="">{any}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** The two dates of a period filter (`from`, `to`; the days the list shows). */
export function DateRangeFields({
  idPrefix,
  labels,
  from,
  to,
}: {
  /** `${idPrefix}-from`, `${idPrefix}-to` */
  idPrefix: string
  labels: { from: string; to: string }
  from: string | null | undefined
  to: string | null | undefined
}) {
  return (
    <>
      <Field id={`${idPrefix}-from`} label={labels.from} name="from" type="date" defaultValue={from ?? ''} />
      <Field id={`${idPrefix}-to`} label={labels.to} name="to" type="date" defaultValue={to ?? ''} />
    </>
  )
}

/** «Найти» and, when given, the link back to the unfiltered list. */
export function FilterButtons({ find, reset }: { find: string; reset?: { to: string; label: string } }) {
  return (
    <div className="admin-filters__buttons">
      <button type="submit" className="button button--primary">
        {find}
      </button>
      {reset ? (
        <Link to={reset.to} className="button">
          {reset.label}
        </Link>
      ) : null}
    </div>
  )
}
