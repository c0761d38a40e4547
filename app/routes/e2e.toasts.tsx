// A page for the browser tests of the notification area (§4): it exists only when the server runs
// with E2E=1 (Playwright's server); everywhere else it is a 404.
import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form } from '@remix-run/react'
import { notify } from '#app/components/notifications/notify'
import { isToastInput, type ToastInput } from '#app/components/notifications/queue'
import { pageNotFound } from '#app/lib/http-errors.server'
import { redirectWithToast } from '#app/lib/toast.server'

export const meta = () => [{ title: 'Toast test page' }]

function guard(request: Request) {
  if (process.env.E2E !== '1') pageNotFound(request)
}

export function loader({ request }: LoaderFunctionArgs) {
  guard(request)
  return null
}

/** Posts `toast` fields as `type:text`; answers with a redirect that flashes them all. */
export async function action({ request }: ActionFunctionArgs) {
  guard(request)
  const form = await request.formData()
  const toasts = form
    .getAll('toast')
    .map(String)
    .map((v): unknown => {
      const [type, ...text] = v.split(':')
      return { type, text: text.join(':') }
    })
    .filter(isToastInput)
  if (toasts.length === 0) return redirect('/e2e/toasts')
  return redirectWithToast('/e2e/toasts', toasts, { request })
}

const SAMPLE: ToastInput[] = [
  { type: 'error', text: 'First error' },
  { type: 'error', text: 'Second error' },
  { type: 'success', text: 'All done' },
]

export default function ToastTestPage() {
  return (
    <div>
      <h1>Toast test page</h1>
      <Form method="post">
        {SAMPLE.map((t) => (
          <input key={t.text} type="hidden" name="toast" value={`${t.type}:${t.text}`} />
        ))}
        <button type="submit" className="button">
          Post two errors and a success
        </button>
      </Form>
      <p>
        <button type="button" className="button" onClick={() => notify(SAMPLE[0] as ToastInput)}>
          Notify the first error
        </button>{' '}
        <button
          type="button"
          className="button"
          onClick={() => notify({ type: 'warning', text: 'A warning' })}
        >
          Notify a warning
        </button>
      </p>
    </div>
  )
}
