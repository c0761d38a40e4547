// What a shopper on a phone sees, measured in the page: horizontal scroll, the header's height,
// tap targets (WCAG 2.2 2.5.8: 24 px with spacing, 44 px preferred), font sizes, and content left
// under a fixed or sticky bar, and money written another way than app/lib/money.ts writes it.
// Each check returns readable problems, so a failure names the culprit.
import type { Page } from '@playwright/test'

/** The one-row header: logo, catalogue and gifts, account (at most 64 px high). */
export const MAX_HEADER_HEIGHT = 64
/** The smallest text a shopper has to read (badges and hints included). */
export const MIN_FONT_PX = 12

export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ maxHeader, minFont }) => {
      const problems: string[] = []
      const width = window.innerWidth
      const label = (el: Element) => {
        const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30)
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : ''
        return `<${el.tagName.toLowerCase()}${cls}>${text ? ` «${text}»` : ''}`
      }
      const shown = (el: Element) => {
        // inside a closed <details> a box is laid out on demand (content-visibility: hidden) but not shown
        if (!el.checkVisibility()) return false
        const r = el.getBoundingClientRect()
        if (r.width === 0 || r.height === 0) return false
        const style = getComputedStyle(el)
        if (style.visibility === 'hidden' || Number(style.opacity) === 0) return false
        // visually hidden text (1 px, clipped) and the off-screen skip link are for screen readers
        if (r.width <= 1 && r.height <= 1) return false
        if (r.right <= 0 || r.left >= width + 1000) return false
        return !el.closest('.visually-hidden')
      }

      // 1. no horizontal scroll
      const scrollWidth = document.scrollingElement?.scrollWidth ?? 0
      if (scrollWidth > width) {
        const wide = [...document.querySelectorAll('body *')]
          .filter((el) => shown(el) && el.getBoundingClientRect().right > width + 0.5)
          .slice(0, 3)
          .map(label)
        problems.push(`page is ${scrollWidth} px wide at ${width}: ${wide.join(', ')}`)
      }

      // 2. the header is one row
      // the bar itself: the demo strip above it is a second, deliberate row
      const header = document.querySelector('.site-header__inner') ?? document.querySelector('.site-header')
      const headerHeight = header?.getBoundingClientRect().height ?? 0
      if (headerHeight > maxHeader) problems.push(`header is ${Math.round(headerHeight)} px high`)

      // 3. tap targets
      const targets = [
        ...document.querySelectorAll(
          'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"]',
        ),
      ].filter(shown)
      const boxOf = (el: Element) => {
        // a checkbox or radio is tapped through its label too
        if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
          const labelEl = el.closest('label') ?? el.labels?.[0]
          if (labelEl) return labelEl.getBoundingClientRect()
        }
        return el.getBoundingClientRect()
      }
      // a link inside running text is exempt (WCAG 2.5.8 "inline")
      const inline = (el: Element) => {
        if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false
        const parent = el.parentElement
        return !!parent && (parent.textContent ?? '').trim().length > (el.textContent ?? '').trim().length
      }
      const boxes = targets.map((el) => ({ el, r: boxOf(el) }))
      for (const { el, r } of boxes) {
        if ((r.width >= 44 && r.height >= 44) || inline(el)) continue
        if (r.width < 24 || r.height < 24) {
          problems.push(`tap target ${label(el)} is ${Math.round(r.width)}×${Math.round(r.height)} px`)
          continue
        }
        // 24–44 px: a 24 px circle around its centre must not reach another target
        const cx = r.left + r.width / 2
        const cy = r.top + r.height / 2
        const crowded = boxes.find(({ el: other, r: o }) => {
          if (other === el || other.contains(el) || el.contains(other)) return false
          const dx = Math.max(o.left - cx, 0, cx - o.right)
          const dy = Math.max(o.top - cy, 0, cy - o.bottom)
          return Math.hypot(dx, dy) < 12
        })
        if (crowded) problems.push(`tap target ${label(el)} is too close to ${label(crowded.el)}`)
      }

      // 4. readable text
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      const small = new Set<Element>()
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement
        if (!el || !(node.textContent ?? '').trim() || !shown(el)) continue
        if (el.closest('script, style, noscript, svg')) continue
        // text drawn only through its ::first-letter (the account menu's initial, issue 36): that
        // letter is what shows, at its own size; the rest is size 0 on purpose
        const size = Number.parseFloat(getComputedStyle(el).fontSize)
        const firstLetter = Number.parseFloat(getComputedStyle(el, '::first-letter').fontSize)
        if ((size === 0 ? firstLetter : size) < minFont) small.add(el)
      }
      for (const el of [...small].slice(0, 5)) {
        problems.push(`text ${label(el)} is ${getComputedStyle(el).fontSize}`)
      }
      // 5. one way of writing money: "89,00 ₽", never "89.00 ₽"
      // biome-ignore lint/performance/useDomNodeTextContent: what is rendered, not scripts' text
      const dotted = document.body.innerText.match(/\d\.\d{2}\s?₽/g)
      if (dotted) problems.push(`money written with a dot: ${dotted.slice(0, 3).join(', ')}`)
      return problems
    },
    { maxHeader: MAX_HEADER_HEIGHT, minFont: MIN_FONT_PX },
  )
}

/**
 * Content under a fixed or sticky bar: scrolled to the end, the page's last line (the footer's
 * last element) must be above every bar that sits at the bottom of the screen.
 */
export async function hiddenBehindBars(page: Page): Promise<string[]> {
  // (synchronous: page.evaluate of a promise never settles with JavaScript off)
  return page.evaluate(() => {
    // an open popup covers the page on purpose
    if (document.querySelector('[aria-modal="true"], dialog[open]')) return []
    window.scrollTo(0, document.scrollingElement?.scrollHeight ?? 0)
    const last = document.querySelector('.site-footer')?.lastElementChild
    if (!last) return ['no footer']
    const lastBox = last.getBoundingClientRect()
    const problems: string[] = []
    for (const el of document.querySelectorAll('body *')) {
      const style = getComputedStyle(el)
      if (style.position !== 'fixed' && style.position !== 'sticky') continue
      if (style.pointerEvents === 'none' && !el.querySelector('*')) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue
      // only bars at the bottom of the screen can cover the end of the page
      if (r.bottom < window.innerHeight - 1) continue
      if (r.top < lastBox.bottom && r.bottom > lastBox.top) {
        problems.push(`the page's last line is under <${el.tagName.toLowerCase()}.${el.className}>`)
      }
    }
    window.scrollTo(0, 0)
    return problems
  })
}
