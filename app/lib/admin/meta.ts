import type { MetaFunction } from '@remix-run/node'
import { createT, type Messages } from '#app/i18n/translate'

/** A back-office page's meta: its title from the admin messages, never indexed. */
export const adminMeta =
  (titleKey: string): MetaFunction =>
  ({ matches }) => {
    const admin = matches.find((m) => m.id === 'routes/admin')?.data as { messages?: Messages } | undefined
    const t = createT({ admin: admin?.messages ?? {} })
    return [
      { title: `${t(`admin.${titleKey}`)} · ${t('admin.title')}` },
      { name: 'robots', content: 'noindex, nofollow' },
    ]
  }
