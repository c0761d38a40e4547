// The order form's code arrives after the page is interactive: on the server it renders in full
// (so the HTML form works before, and without, JavaScript); in the browser its chunk is fetched
// lazily and React hydrates the form once the chunk is there. Keeps the game page's first-load JS
// within budget without dropping anything from the form.
import { lazy, Suspense } from 'react'
import { OrderForm as ServerOrderForm } from './order-form'

type Props = Parameters<typeof ServerOrderForm>[0]

const BrowserOrderForm = lazy(() => import('./order-form').then((m) => ({ default: m.OrderForm })))

const Impl = import.meta.env.SSR ? ServerOrderForm : BrowserOrderForm

export function DeferredOrderForm(props: Props) {
  // no fallback is ever shown: the server's HTML stays in place until the chunk has hydrated it
  return (
    <Suspense fallback={null}>
      <Impl {...props} />
    </Suspense>
  )
}
