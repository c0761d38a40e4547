// The order form's code arrives after the page is interactive: on the server it renders in full
// (so the HTML form works before, and without, JavaScript); in the browser its chunk is fetched
// lazily and React hydrates the form once the chunk is there. Keeps the game page's first-load JS
// within budget without dropping anything from the form.
import { type ComponentType, lazy, Suspense, useState } from 'react'
import { EarlySteppers } from './early-steppers'
import { OrderForm as ServerOrderForm } from './order-form'

type Props = Parameters<typeof ServerOrderForm>[0]

/** The form's component once its chunk is in (browser only). */
let loaded: ComponentType<Props> | null = null

/** Fetches the form's chunk; a navigation to a game page waits for it (issue 50: no form popping in). */
export function loadOrderForm(): Promise<{ default: ComponentType<Props> }> {
  return import('./order-form').then((m) => {
    loaded = m.OrderForm
    return { default: m.OrderForm }
  })
}

const BrowserOrderForm = lazy(loadOrderForm)

export function DeferredOrderForm(props: Props) {
  // a page opened in the app, after the chunk came: the form renders with the page, in its place
  // (no empty moment that would push the FAQ down); chosen once, so the form is never remounted
  const [ready] = useState(() => (import.meta.env.SSR ? ServerOrderForm : loaded))
  // one Suspense boundary on the server and in the browser, so hydration finds the server's HTML;
  // on the first load no fallback is ever shown: that HTML stays until the chunk has hydrated it
  return (
    <>
      <Suspense fallback={null}>
        {ready ? <Ready impl={ready} props={props} /> : <BrowserOrderForm {...props} />}
      </Suspense>
      {/* the steppers work before the form's code is in (issue 50); Steam's form has none */}
      {props.loaderData.game.kind !== 'Steam' ? <EarlySteppers /> : null}
    </>
  )
}

function Ready({ impl: Impl, props }: { impl: ComponentType<Props>; props: Props }) {
  return <Impl {...props} />
}
