/** The info section's pages, in menu order: path and the `info.pages.*` key of their texts. */
export const INFO_PAGES = [
  { path: '/info/contacts', key: 'contacts' },
  { path: '/info/privacy-policy', key: 'privacy_policy' },
  { path: '/info/user-agreement', key: 'user_agreement' },
  { path: '/info/TextBlock', key: 'text_block' },
] as const
