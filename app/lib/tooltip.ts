// Tooltip settings of §9 and the sanitizer for HTML tooltips. Pure (no DOM): tippy.js itself is
// imported lazily by `useTooltip` on the first hover or focus.

export type TooltipPlacement =
  | 'top'
  | 'top-start'
  | 'top-end'
  | 'bottom'
  | 'bottom-start'
  | 'bottom-end'
  | 'left'
  | 'left-start'
  | 'left-end'
  | 'right'
  | 'right-start'
  | 'right-end'

export interface TooltipModifiers {
  /** The content is HTML (sanitized); without it, it is plain text. */
  html?: boolean
  /** Show at once, without waiting for a hover or focus. */
  show?: boolean
}

export interface TooltipSettings {
  content: string
  allowHTML: boolean
  placement: TooltipPlacement
  offset: [number, number]
  maxWidth: number
  zIndex: number
  trigger: string
  theme: string
}

export const TOOLTIP_THEME = 'bd-tooltip-theme'

/** tippy.js props for a tooltip: the defaults of §9, the placement from the argument. */
export function tooltipSettings(
  content: string,
  placement: TooltipPlacement = 'top',
  modifiers: TooltipModifiers = {},
): TooltipSettings {
  const html = modifiers.html === true
  return {
    content: html ? sanitizeTooltipHtml(content) : content,
    allowHTML: html,
    placement,
    offset: [0, 10],
    maxWidth: 350,
    zIndex: 9999,
    trigger: 'mouseenter focus',
    theme: TOOLTIP_THEME,
  }
}

// Inline formatting is all a tooltip needs. Everything else is dropped; a few elements lose their
// content too, because their text is code or markup, never a message.
const ALLOWED = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'small',
  'br',
  'p',
  'span',
  'ul',
  'ol',
  'li',
  'code',
  'a',
])
const VOID = new Set(['br'])
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'textarea',
  'title',
  'svg',
  'math',
  'select',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
])
const TAG =
  /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[!?][^>]*>?|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g

function escapeText(text: string): string {
  return text
    .replace(/&(?!(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** A safe href (http, https, mailto, tel or a path on this site), or null. */
function safeHref(attrs: string): string | null {
  const m = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attrs)
  const raw = (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim()
  if (!raw) return null
  // entities and control characters could hide a `javascript:` scheme
  if (/[&\\]/.test(raw) || [...raw].some((c) => c.charCodeAt(0) < 0x20)) return null
  if (/^(?:https?:|mailto:|tel:)/i.test(raw) || /^\/(?!\/)/.test(raw)) return escapeText(raw)
  return null
}

/**
 * An allow-list sanitizer for tooltip HTML: inline formatting and lists, links with safe hrefs
 * (opened with rel="noopener noreferrer"), no other attributes, escaped text. Works the same on
 * the server and in the browser.
 */
export function sanitizeTooltipHtml(input: string): string {
  let out = ''
  let last = 0
  let dropUntil: string | null = null
  for (const m of input.matchAll(TAG)) {
    const [whole, slash, rawName, attrs = ''] = m
    const index = m.index ?? 0
    if (dropUntil === null) out += escapeText(input.slice(last, index))
    last = index + whole.length
    if (!rawName) continue // comment, doctype, processing instruction, CDATA
    const name = rawName.toLowerCase()
    if (dropUntil !== null) {
      if (slash && name === dropUntil) dropUntil = null
      continue
    }
    if (DROP_WITH_CONTENT.has(name)) {
      if (!slash && !/\/\s*$/.test(attrs)) dropUntil = name
      continue
    }
    if (!ALLOWED.has(name)) continue
    if (slash) {
      if (!VOID.has(name)) out += `</${name}>`
    } else if (name === 'a') {
      const href = safeHref(attrs)
      out += href ? `<a href="${href}" rel="noopener noreferrer" target="_blank">` : '<a>'
    } else {
      out += `<${name}>`
    }
  }
  if (dropUntil === null) out += escapeText(input.slice(last))
  return out
}
