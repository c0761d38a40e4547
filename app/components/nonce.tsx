import { createContext, useContext } from 'react'

/**
 * The Content-Security-Policy nonce of this response, for `<Scripts>` and `<ScrollRestoration>`.
 * Set by entry.server; in the browser it is '' (the nonce is only needed in the server's HTML, and
 * browsers hide nonce attributes from the DOM anyway).
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}
