import { useState } from 'react'
import { notify } from '#app/components/notifications/notify'
import { useT } from '#app/i18n/i18n-context'
import { useHydrated } from '#app/lib/use-hydrated'

/**
 * Copies `text` to the clipboard. Rendered only with JavaScript: without it the text next to it
 * is plain selectable text (see .copyable in payment.css).
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const t = useT()
  const hydrated = useHydrated()
  const [copied, setCopied] = useState(false)
  if (!hydrated) return null
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      notify({ type: 'success', text: t('payment.copied') })
    } catch {
      notify({ type: 'error', text: t('payment.copy_failed') })
    }
  }
  return (
    <button
      type="button"
      className="button copy-button"
      aria-label={t('payment.copy_label', { what })}
      onClick={copy}
    >
      {copied ? t('payment.copied') : t('payment.copy')}
    </button>
  )
}

/** A value the shopper needs to copy: selectable text plus, with JavaScript, a copy button. */
export function Copyable({ value, what }: { value: string; what: string }) {
  return (
    <span className="copyable">
      <code className="copyable__value">{value}</code>
      <CopyButton text={value} what={what} />
    </span>
  )
}
