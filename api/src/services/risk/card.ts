// Card identity for the risk rules (issue 34, decision 073): what the provider returns about the
// card that paid (YooKassa: first6, last4, expiry, issuer; Payselection: the masked number), kept
// only as an HMAC-SHA256 keyed hash (the key derives from JWT_SECRET), never in the clear.
import { createHmac } from 'node:crypto'

export interface CardFacts {
  first6?: string | null
  last4?: string | null
  /** Payselection's masked number, e.g. 411111******1111. */
  masked?: string | null
  /** ISO 3166-1 alpha-2 of the issuing bank, when the provider says. */
  issuerCountry?: string | null
}

/** The card's keyed hash, or null when the provider said too little to tell cards apart. */
export function cardHash(key: string, card: CardFacts | null | undefined): string | null {
  if (!card) return null
  const masked = card.masked?.replace(/\s/g, '')
  const m = masked ? /^(\d{6})[*Xx•]+(\d{4})$/.exec(masked) : null
  const first6 = card.first6 ?? m?.[1]
  const last4 = card.last4 ?? m?.[2]
  if (!first6 || !last4 || !/^\d{6}$/.test(first6) || !/^\d{4}$/.test(last4)) return null
  // bin and last digits only: Payselection gives no expiry, and one card must hash alike at both
  // providers (two cards sharing them are rare, and a hash only ever holds an order for review)
  return createHmac('sha256', key).update(`${first6}|${last4}`).digest('hex')
}

export const issuerCountry = (card: CardFacts | null | undefined) => {
  const c = card?.issuerCountry?.trim().toUpperCase()
  return c && /^[A-Z]{2}$/.test(c) ? c : null
}

/** A payment country's ISO code, from its flag (/images/flags/ru.svg); null when it says nothing. */
export function countryCodeOf(country: { flag: string }): string | null {
  const m = /\/([a-z]{2})\.(?:svg|png|webp)$/i.exec(country.flag)
  return m?.[1] ? m[1].toUpperCase() : null
}
