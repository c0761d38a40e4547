import { describe, expect, it } from 'vitest'
import {
  dismissToast,
  emptyQueue,
  isToastInput,
  pushToast,
  type ToastQueue,
} from '#app/components/notifications/queue'

const errA = { type: 'error', text: 'A' } as const
const errB = { type: 'error', text: 'B' } as const
const okC = { type: 'success', text: 'C' } as const

describe('notification queue (§4)', () => {
  it('shows the first toast and queues the others in order', () => {
    const q = [errA, errB, okC].reduce<ToastQueue>(pushToast, emptyQueue)
    expect(q.current).toMatchObject(errA)
    expect(q.pending.map((t) => t.text)).toEqual(['B', 'C'])
  })

  it('restarts the showing toast when the same text and type comes again (new id, nothing queued)', () => {
    const first = pushToast(emptyQueue, errA)
    const again = pushToast(first, { ...errA })
    expect(again.current).toMatchObject(errA)
    expect(again.current?.id).not.toBe(first.current?.id)
    expect(again.pending).toEqual([])
  })

  it('queues the same text with another type, and a repeat of a waiting (not showing) toast', () => {
    let q = pushToast(emptyQueue, errA)
    q = pushToast(q, { type: 'warning', text: 'A' })
    q = pushToast(q, errB)
    q = pushToast(q, errB)
    expect(q.pending.map((t) => `${t.type}:${t.text}`)).toEqual(['warning:A', 'error:B', 'error:B'])
  })

  it('closing or the end of the animation shows the next; an empty queue hides the toast', () => {
    let q = [errA, errB, okC].reduce<ToastQueue>(pushToast, emptyQueue)
    q = dismissToast(q, q.current?.id)
    expect(q.current).toMatchObject(errB)
    q = dismissToast(q)
    expect(q.current).toMatchObject(okC)
    q = dismissToast(q, q.current?.id)
    expect(q.current).toBeNull()
    expect(q.pending).toEqual([])
    expect(dismissToast(q)).toBe(q)
  })

  it('ignores a late end-of-animation from a toast that was already restarted', () => {
    const first = pushToast(emptyQueue, errA)
    const staleId = first.current?.id
    const restarted = pushToast(pushToast(first, errA), errB)
    expect(dismissToast(restarted, staleId)).toBe(restarted)
  })

  it('a toast pushed after the queue emptied shows at once', () => {
    let q = dismissToast(pushToast(emptyQueue, errA))
    q = pushToast(q, okC)
    expect(q.current).toMatchObject(okC)
  })

  it('accepts only the three types with some text', () => {
    expect(isToastInput(errA)).toBe(true)
    expect(isToastInput({ type: 'info', text: 'x' })).toBe(false)
    expect(isToastInput({ type: 'error', text: '' })).toBe(false)
    expect(isToastInput('error')).toBe(false)
  })
})
