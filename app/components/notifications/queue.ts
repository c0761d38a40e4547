// The notification queue of §4 as pure functions, so it is easy to reason about and test.
// One toast shows at a time. The same text and type as the one showing restarts its animation
// (a new id remounts the element); anything else waits its turn. Closing the toast or the end of
// its animation shows the next; an empty queue shows nothing.

export const TOAST_TYPES = ['success', 'warning', 'error'] as const
export type ToastType = (typeof TOAST_TYPES)[number]

export interface ToastInput {
  type: ToastType
  text: string
}

export interface Toast extends ToastInput {
  /** Changes whenever the toast (re)starts: the React key of its element. */
  id: number
}

export interface ToastQueue {
  current: Toast | null
  pending: Toast[]
  nextId: number
}

export const emptyQueue: ToastQueue = { current: null, pending: [], nextId: 1 }

export function isToastInput(value: unknown): value is ToastInput {
  if (!value || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return (
    typeof v.text === 'string' && v.text.length > 0 && (TOAST_TYPES as readonly unknown[]).includes(v.type)
  )
}

function sameAs(a: ToastInput | null, b: ToastInput): boolean {
  return a !== null && a.type === b.type && a.text === b.text
}

/** Adds a notification: restart when it repeats the one showing, else show it or queue it. */
export function pushToast(queue: ToastQueue, input: ToastInput): ToastQueue {
  const toast: Toast = { type: input.type, text: input.text, id: queue.nextId }
  const nextId = queue.nextId + 1
  if (sameAs(queue.current, input)) return { ...queue, current: toast, nextId }
  if (!queue.current) return { ...queue, current: toast, nextId }
  return { ...queue, pending: [...queue.pending, toast], nextId }
}

/**
 * The showing toast is done (closed, or its animation ended): the next one shows, or none.
 * `id` guards against a late event from a toast that was already replaced.
 */
export function dismissToast(queue: ToastQueue, id?: number): ToastQueue {
  if (!queue.current || (id !== undefined && queue.current.id !== id)) return queue
  const [next = null, ...rest] = queue.pending
  return { ...queue, current: next, pending: rest }
}
