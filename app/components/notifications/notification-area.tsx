import { useLocation, useMatches } from '@remix-run/react'
import { type AnimationEvent, useEffect, useReducer, useRef, useState } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { listenForToasts } from './notify'
import { dismissToast, emptyQueue, isToastInput, pushToast, type Toast, type ToastInput } from './queue'

type Action = { kind: 'push'; toast: ToastInput } | { kind: 'dismiss'; id: number }

function reduce(queue: typeof emptyQueue, action: Action) {
  return action.kind === 'push' ? pushToast(queue, action.toast) : dismissToast(queue, action.id)
}

/**
 * Toasts that arrived with the page: the root loader's flash toasts (`toasts`, from a form post's
 * redirect) and any route loader's `notifications` (e.g. the API client's `no_access` detail).
 */
function useLoaderToasts(): unknown[][] {
  const matches = useMatches()
  const lists: unknown[][] = []
  for (const match of matches) {
    const data = match.data as { toasts?: unknown; notifications?: unknown } | undefined
    for (const list of [data?.toasts, data?.notifications]) {
      if (Array.isArray(list) && list.length > 0) lists.push(list)
    }
  }
  return lists
}

/**
 * The notification area of §2/§4, on every page. Rendered on the server too, so a form post's
 * result shows without JavaScript: then CSS plays the queued toasts one after another. With
 * JavaScript the queue of ./queue.ts drives it.
 */
export function NotificationArea() {
  const t = useT()
  const lists = useLoaderToasts()
  // a loader's list is shown once, however often the page re-renders (identity of the array)
  const seen = useRef(new WeakSet<unknown[]>())
  const [queue, dispatch] = useReducer(reduce, lists, (initial) => {
    let q = emptyQueue
    for (const list of initial) {
      seen.current.add(list)
      for (const toast of list.filter(isToastInput)) q = pushToast(q, toast)
    }
    return q
  })
  const [hydrated, setHydrated] = useState(false)
  const location = useLocation()

  useEffect(() => setHydrated(true), [])
  useEffect(() => listenForToasts((toast) => dispatch({ kind: 'push', toast })), [])
  // toasts of later navigations (the root's flash after a post, a page's notifications)
  // biome-ignore lint/correctness/useExhaustiveDependencies: rerun per navigation, lists are read fresh
  useEffect(() => {
    for (const list of lists) {
      if (seen.current.has(list)) continue
      seen.current.add(list)
      for (const toast of list.filter(isToastInput)) dispatch({ kind: 'push', toast })
    }
  }, [location.key, lists.length])

  const current = queue.current
  const done = (id: number) => dispatch({ kind: 'dismiss', id })
  // without JavaScript the waiting toasts are rendered too; CSS delays each one in turn
  const stack = current ? [current, ...(hydrated ? [] : queue.pending)] : []
  const polite = stack.filter((toast) => toast.type !== 'error')
  const urgent = stack.filter((toast) => toast.type === 'error')
  const render = (toast: Toast) => (
    <ToastView
      key={toast.id}
      toast={toast}
      order={stack.indexOf(toast)}
      closeLabel={hydrated ? t('notifications.close') : null}
      onDone={done}
    />
  )
  return (
    <section className="toast-area" aria-label={t('notifications.region')}>
      <div role="status" aria-live="polite" className="toast-stack">
        {polite.map(render)}
      </div>
      <div role="alert" aria-live="assertive" className="toast-stack">
        {urgent.map(render)}
      </div>
    </section>
  )
}

function ToastView({
  toast,
  order,
  closeLabel,
  onDone,
}: {
  toast: Toast
  order: number
  closeLabel: string | null
  onDone: (id: number) => void
}) {
  const ended = (e: AnimationEvent) => {
    if (e.target === e.currentTarget && e.animationName === 'toast-life') onDone(toast.id)
  }
  return (
    <div
      className={`toast toast--${toast.type}`}
      data-order={order > 0 ? Math.min(order, 4) : undefined}
      data-toast-type={toast.type}
      onAnimationEnd={ended}
    >
      <p className="toast__text">{toast.text}</p>
      {closeLabel ? (
        <button
          type="button"
          className="toast__close"
          aria-label={closeLabel}
          onClick={() => onDone(toast.id)}
        >
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  )
}
