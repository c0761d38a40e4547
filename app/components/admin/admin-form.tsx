// Back-office forms: a post form that works without JavaScript, whose fields show the API's
// refusal (message on top, field messages by the fields) and keep what was typed. The fields are
// the form kit's (app/components/form/field.tsx), fed from the failed post.
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { createContext, type ReactNode, useContext } from 'react'
import { CheckField, ErrorList, Field as FormField } from '#app/components/form/field'
import type { FormFailure } from '#app/lib/admin/admin.server'

interface FormState {
  key: string
  failure: FormFailure | null
}
const FormContext = createContext<FormState>({ key: '', failure: null })

/** The failure of the form `key`, when the last post was that form's. */
function useFailure(key: string): FormFailure | null {
  const result = useActionData() as FormFailure | { ok: true } | undefined
  return result && !result.ok && result.form === key ? result : null
}

export function AdminForm({
  formKey,
  intent,
  label,
  children,
  className,
  action,
  encType,
  hidden,
}: {
  /** Unique on the page: which form a failure belongs to. */
  formKey: string
  intent: string
  /** The form's accessible name. */
  label: string
  children: ReactNode
  className?: string
  action?: string
  encType?: 'multipart/form-data'
  hidden?: Record<string, string | number>
}) {
  const failure = useFailure(formKey)
  return (
    <Form
      method="post"
      action={action}
      encType={encType}
      className={className ?? 'admin-form'}
      aria-label={label}
      noValidate
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="_form" value={formKey} />
      {Object.entries(hidden ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <ErrorList errors={failure?.message} />
      <FormContext.Provider value={{ key: formKey, failure }}>{children}</FormContext.Provider>
    </Form>
  )
}

type FieldProps = {
  name: string
  label: string
  hint?: string
  defaultValue?: string | number | null
  required?: boolean
} & (
  | {
      type?: 'text' | 'number' | 'email' | 'datetime-local' | 'date' | 'url'
      inputMode?: 'decimal' | 'numeric'
    }
  | { type: 'textarea'; rows?: number }
  | { type: 'select'; options: Array<{ value: string; label: string }> }
)

const fieldId = (key: string, name: string) => `${key.replace(/[^\w-]/g, '-')}-${name}`

export function Field(props: FieldProps) {
  const { key, failure } = useContext(FormContext)
  const value = failure ? (failure.values[props.name] ?? '') : (props.defaultValue ?? '')
  const common = { name: props.name, defaultValue: String(value), required: props.required }
  return (
    <FormField
      id={fieldId(key, props.name)}
      label={props.label}
      hint={props.hint}
      error={failure?.fields[props.name]}
    >
      {(control) =>
        props.type === 'textarea' ? (
          <textarea {...control} {...common} rows={props.rows ?? 4} />
        ) : props.type === 'select' ? (
          <select {...control} {...common}>
            {props.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...control}
            {...common}
            type={props.type === 'number' ? 'text' : (props.type ?? 'text')}
            inputMode={props.type === 'number' ? (props.inputMode ?? 'numeric') : props.inputMode}
          />
        )
      }
    </FormField>
  )
}

/** A file input with the form's error by it (nothing typed to keep: a file is chosen again). */
export function FileField({
  name,
  label,
  hint,
  accept,
}: {
  name: string
  label: string
  hint?: string
  accept?: string
}) {
  const { key, failure } = useContext(FormContext)
  return (
    <FormField
      id={fieldId(key, name)}
      label={label}
      hint={hint}
      error={failure?.fields[name]}
      name={name}
      type="file"
      accept={accept}
    />
  )
}

export function Check({
  name,
  label,
  defaultChecked,
}: {
  name: string
  label: string
  defaultChecked: boolean
}) {
  const { key, failure } = useContext(FormContext)
  const id = fieldId(key, name)
  const checked = failure ? failure.values[name] !== undefined : defaultChecked
  const error = failure?.fields[name]
  return <CheckField id={id} name={name} defaultChecked={checked} label={label} error={error} />
}

/** The form's submit button, disabled while it is being sent. */
export function Submit({ children, danger }: { children: ReactNode; danger?: boolean }) {
  const navigation = useNavigation()
  const { key } = useContext(FormContext)
  const busy = navigation.state === 'submitting' && navigation.formData?.get('_form') === key
  return (
    <button
      type="submit"
      className={`button ${danger ? 'button--danger' : 'button--primary'}`}
      disabled={busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  )
}

/** Which form the last post refused (to keep its folded section open), or null. */
export function useFailedForm(): string | null {
  const result = useActionData() as FormFailure | { ok: true } | undefined
  return result && !result.ok ? result.form : null
}
