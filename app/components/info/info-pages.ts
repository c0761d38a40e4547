/** The info section's pages, in menu order: path and the i18n prefix of their texts (title, summary). */
export const INFO_PAGES = [
  { path: '/info/contacts', key: 'info.pages.contacts' },
  { path: '/info/privacy-policy', key: 'info.pages.privacy_policy' },
  { path: '/info/user-agreement', key: 'info.pages.user_agreement' },
  { path: '/info/refunds', key: 'legal.pages.refunds' },
  { path: '/info/consent', key: 'legal.pages.consent' },
  { path: '/info/TextBlock', key: 'info.pages.text_block' },
] as const
