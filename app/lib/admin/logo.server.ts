// A back-office image form post (a game's or gift's logo, a payment method's icon, the shop's
// logo) → the API's multipart upload (the API checks the image itself).
import type { ApiSession } from '#app/lib/api/client.server'
import { multipart, postedFile } from '#app/lib/api/multipart'
import { adminT, settle } from './admin.server'

const TARGETS = {
  games: { path: '/api/admin/games/{id}/logo/', field: 'logo', saved: 'admin.logo.saved' },
  gifts: { path: '/api/admin/gifts/{id}/logo/', field: 'logo', saved: 'admin.logo.saved' },
  methods: {
    path: '/api/admin/payments/methods/{id}/icon/',
    field: 'icon',
    saved: 'admin.payment_setup.icon_upload.saved',
  },
  shop: { path: '/api/admin/shop/logo/', field: 'logo', saved: 'admin.logo.saved' },
} as const

export function uploadLogo(
  request: Request,
  api: ApiSession,
  posted: { form: FormData; key: string },
  what: keyof typeof TARGETS,
  /** The item's id (none for the shop's own logo). */
  id?: number,
) {
  const target = TARGETS[what]
  const file = postedFile(posted.form, target.field)
  const bodySerializer = multipart
  const call =
    target.path === '/api/admin/shop/logo/'
      ? api.client.POST(target.path, { body: { logo: file }, bodySerializer })
      : target.path === '/api/admin/payments/methods/{id}/icon/'
        ? api.client.POST(target.path, {
            params: { path: { id: id ?? 0 } },
            body: { icon: file },
            bodySerializer,
          })
        : api.client.POST(target.path, {
            params: { path: { id: id ?? 0 } },
            body: { logo: file },
            bodySerializer,
          })
  return settle(request, api, posted, call, adminT(target.saved))
}
