import { Form } from '@remix-run/react'

/**
 * A catalogue search as a GET form: the query lands in the URL (works without JavaScript) and
 * `hidden` keeps other URL state, such as the chosen list.
 */
export function SearchForm(props: {
  action: string
  id: string
  className: string
  search: string
  label: string
  placeholder: string
  submit: string
  hidden?: Record<string, string>
}) {
  return (
    <Form method="get" action={props.action} role="search" className={props.className}>
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={props.id} className="visually-hidden">
        {props.label}
      </label>
      <input
        id={props.id}
        className="input"
        type="search"
        name="search"
        defaultValue={props.search}
        key={props.search}
        maxLength={100}
        placeholder={props.placeholder}
        autoComplete="off"
      />
      <button type="submit" className="button button--primary">
        {props.submit}
      </button>
    </Form>
  )
}
