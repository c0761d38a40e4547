// The shop's legal documents (issue 47): the info articles the order form, sign-up and the footer
// link to, which the owner publishes from templates. Until each is published the overview lists
// it in «Что ещё не настроено» and its storefront page says the shop has not published it yet.

/** The slugs of the legal documents, in the order the back-office lists them. */
export const LEGAL_SLUGS = ['privacy-policy', 'consent', 'user-agreement', 'refunds'] as const

export type LegalSlug = (typeof LEGAL_SLUGS)[number]

export const isLegalSlug = (slug: string): slug is LegalSlug =>
  (LEGAL_SLUGS as readonly string[]).includes(slug)
