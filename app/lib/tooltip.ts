// Tooltip settings of §9. Pure (no DOM): tippy.js itself is imported lazily by `useTooltip` on the
// first hover or focus. HTML tooltips go through the shop's one sanitizer.

import { sanitizeHtml } from '#app/lib/sanitize-html'

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
    content: html ? sanitizeHtml(content, { newTab: true }) : content,
    allowHTML: html,
    placement,
    offset: [0, 10],
    maxWidth: 350,
    zIndex: 9999,
    trigger: 'mouseenter focus',
    theme: TOOLTIP_THEME,
  }
}
