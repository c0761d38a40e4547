import { useEffect } from 'react'
import { useNonce } from './nonce'
import { useAccountData } from './user-account-data'

declare global {
  interface Window {
    /** Who is chatting, for the support chat widget (null for guests). */
    $chatUser?: { id: number } | null
  }
}

/**
 * The support chat widget (§1): its script loads only when CHAT_WIDGET_URL is set, after the page
 * has painted, and it finds the user id in `window.$chatUser`. No inline script (CSP).
 */
export function UserChatWidget() {
  const { user, chatWidgetUrl } = useAccountData()
  const nonce = useNonce()
  const userId = user?.id ?? null
  useEffect(() => {
    window.$chatUser = userId === null ? null : { id: userId }
  }, [userId])
  useEffect(() => {
    if (!chatWidgetUrl || document.querySelector('script[data-chat-widget]')) return
    const load = () => {
      const s = document.createElement('script')
      s.src = chatWidgetUrl
      s.async = true
      s.dataset.chatWidget = ''
      if (nonce) s.nonce = nonce
      document.body.appendChild(s)
    }
    // after first paint and the browser's idle moment, so it never delays the page
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500))
    const handle = idle(load)
    return () => {
      if (window.cancelIdleCallback && typeof handle === 'number') window.cancelIdleCallback(handle)
    }
  }, [chatWidgetUrl, nonce])
  return userId !== null ? <span hidden data-chat-user-id={userId} /> : null
}
