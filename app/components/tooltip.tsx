import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react'
import type { TooltipModifiers, TooltipPlacement } from '#app/lib/tooltip'

type TippyInstance = { show(): void; destroy(): void; setProps(props: object): void }

/**
 * Attaches a tippy.js tooltip to the element (§9). tippy is not part of any page's first-load
 * JavaScript: it is imported on the first hover or keyboard focus (or at once with `show`), and
 * the tooltip then appears for the event that loaded it.
 */
export function useTooltip<T extends HTMLElement>(
  ref: RefObject<T | null>,
  content: string,
  placement: TooltipPlacement = 'top',
  modifiers: TooltipModifiers = {},
): void {
  const instance = useRef<TippyInstance | null>(null)
  const { html = false, show = false } = modifiers

  useEffect(() => {
    const el = ref.current
    if (!el) return
    let cancelled = false
    const create = async () => {
      if (instance.current || cancelled) return
      // tippy and the settings (with the HTML sanitizer) load together, on demand
      const [{ default: tippy }, { tooltipSettings }] = await Promise.all([
        import('tippy.js'),
        import('#app/lib/tooltip'),
      ])
      if (cancelled || instance.current) return
      const settings = tooltipSettings(content, placement, { html })
      // the described-by text is on the page already (see <Hint>); tippy need not add it again
      instance.current = tippy(el, { ...settings, aria: { content: null } }) as TippyInstance
      const active = el.matches(':hover') || el === document.activeElement
      if (show || active) instance.current.show()
    }
    if (show) void create()
    el.addEventListener('mouseenter', create, { once: true })
    el.addEventListener('focus', create, { once: true })
    return () => {
      cancelled = true
      el.removeEventListener('mouseenter', create)
      el.removeEventListener('focus', create)
      instance.current?.destroy()
      instance.current = null
    }
  }, [ref, content, placement, html, show])
}

/** Any element with a tooltip; `children` is the element's own content. */
export function Tooltip({
  content,
  placement,
  html,
  show,
  children,
  className,
  label,
}: {
  content: string
  placement?: TooltipPlacement
  html?: boolean
  show?: boolean
  children: ReactNode
  className?: string
  /** Accessible name of the trigger when its content is only an icon. */
  label?: string
}) {
  const ref = useRef<HTMLButtonElement>(null)
  const descriptionId = useId()
  useTooltip(ref, content, placement, { html, show })
  return (
    <>
      <button
        ref={ref}
        type="button"
        className={className ?? 'tooltip-trigger'}
        aria-label={label}
        aria-describedby={descriptionId}
      >
        {children}
      </button>
      <span id={descriptionId} hidden>
        {html ? stripTags(content) : content}
      </span>
    </>
  )
}

function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}
