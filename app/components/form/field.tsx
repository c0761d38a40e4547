// The storefront's and back-office's one form kit: a labelled control with its hint and its error
// (linked by aria-describedby, flagged by aria-invalid), and a form's own error lines. The classes
// are the shared ones of app/styles (field, field__hint, field__error, form-error).
import { Fragment, type InputHTMLAttributes, type ReactNode, useId } from 'react'

/** What a control of a Field gets: its id (the label's target) and its aria wiring. */
export interface FieldControl {
  id: string
  'aria-invalid'?: true
  'aria-describedby'?: string
}

/** The ids a Field gives its hint and error, for a control that is described from elsewhere. */
export const hintId = (id: string) => `${id}-hint`
export const errorId = (id: string) => `${id}-error`

/** The aria attributes of control `id` with an optional hint and error. */
export function fieldAria(id: string, hint: unknown, error: unknown): FieldControl {
  const describedBy = [hint ? hintId(id) : null, error ? errorId(id) : null].filter(Boolean).join(' ')
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  }
}

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children' | 'id' | 'className'> & {
  label: ReactNode
  hint?: ReactNode
  /** The field's message (the form's own or the API's); shown under the hint. */
  error?: ReactNode
  /** The control's id; one of React's when not given. */
  id?: string
  /** The error is announced when it appears (role="alert"), for a form that stays on screen. */
  announce?: boolean
  /** Extra class of the field's box (`field--check`). */
  className?: string
  /** A control other than a plain input (select, textarea): it gets the id and aria attributes. */
  children?: (control: FieldControl) => ReactNode
}

/** One labelled control: an <input> with the given attributes, or the `children` control. */
export function Field({
  label,
  hint,
  error,
  id: given,
  announce,
  className,
  children,
  ...input
}: FieldProps) {
  const fallback = useId()
  const id = given ?? fallback
  const control = fieldAria(id, hint, error)
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children ? children(control) : <input {...input} {...control} />}
      {hint ? (
        <span className="field__hint" id={hintId(id)}>
          {hint}
        </span>
      ) : null}
      {error && announce ? (
        <p className="field__error" id={errorId(id)} role="alert">
          {error}
        </p>
      ) : error ? (
        <span className="field__error" id={errorId(id)}>
          {error}
        </span>
      ) : null}
    </div>
  )
}

type CheckFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'children' | 'id' | 'className'
> & {
  label: ReactNode
  hint?: ReactNode
  error?: ReactNode
  id?: string
  /** Extra class of the field's box, besides `field field--check`. */
  className?: string
}

/** One checkbox with its label after it (a phone-sized target), its hint and its error. */
export function CheckField({ label, hint, error, id: given, className, ...input }: CheckFieldProps) {
  const fallback = useId()
  const id = given ?? fallback
  return (
    <div className={className ? `field field--check ${className}` : 'field field--check'}>
      <input type="checkbox" {...input} {...fieldAria(id, hint, error)} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span className="field__hint" id={hintId(id)}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field__error" id={errorId(id)}>
          {error}
        </span>
      ) : null}
    </div>
  )
}

/** A form's own errors (not a field's), announced; nothing when there are none. */
export function ErrorList({
  errors,
  id,
}: {
  errors: string | readonly (string | undefined)[] | undefined
  id?: string
}) {
  const list = (typeof errors === 'string' ? [errors] : (errors ?? [])).filter((e): e is string => Boolean(e))
  if (list.length === 0) return null
  return (
    <p className="form-error" role="alert" id={id}>
      {list.map((e, i) => (
        <Fragment key={e}>
          {i > 0 ? <br /> : null}
          {e}
        </Fragment>
      ))}
    </p>
  )
}
