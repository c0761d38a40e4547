// The short order number people read out (decision 135): «№ 10234» wherever a person sees an
// order; the UUID stays in URLs and the API's ids. Shared by the storefront, the API and mails.

/** 10234 → «№ 10234» (a plain space: what a person copies is what the search takes). */
export const formatOrderNumber = (n: number): string => `№ ${n}`

/**
 * What a person typed for an order number («10234», «№ 10234», «#10234», «№10234») → 10234;
 * null when it is not one.
 */
export function parseOrderNumber(text: string): number | null {
  const m = /^(?:№|#|n[o°]\.?)?\s*(\d{1,10})$/iu.exec(text.trim())
  if (!m?.[1]) return null
  const n = Number(m[1])
  return n >= 1 && n <= 2_147_483_647 ? n : null
}
