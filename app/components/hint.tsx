import type { TooltipPlacement } from '#app/lib/tooltip'
import { Tooltip } from './tooltip'

/**
 * A small "i" button whose tooltip explains a fee, a commission or a field. The explanation is
 * also the button's accessible description, so screen readers get it without hovering.
 *
 *   <Hint label={t('steam.commission_hint_label')} text={t('steam.commission_hint', { percent })} />
 */
export function Hint({
  label,
  text,
  html,
  placement,
}: {
  /** What the hint is about, e.g. "О комиссии". */
  label: string
  text: string
  html?: boolean
  placement?: TooltipPlacement
}) {
  return (
    <Tooltip content={text} html={html} placement={placement} label={label} className="hint">
      <span aria-hidden="true">i</span>
    </Tooltip>
  )
}
