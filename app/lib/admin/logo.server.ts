// A back-office logo form post → the API's multipart upload (the API checks the image itself).
import type { ApiSession } from '#app/lib/api/client.server'
import { adminT, settle } from './admin.server'

export function uploadLogo(
  request: Request,
  api: ApiSession,
  posted: { form: FormData; key: string },
  what: 'games' | 'gifts',
  id: number,
) {
  const upload = new FormData()
  const file = posted.form.get('logo')
  if (file instanceof File && file.size > 0) upload.set('logo', file, file.name || 'logo')
  const path = what === 'games' ? '/api/admin/games/{id}/logo/' : '/api/admin/gifts/{id}/logo/'
  return settle(
    request,
    api,
    posted,
    api.client.POST(path, {
      params: { path: { id } },
      body: upload as never,
      bodySerializer: (b: unknown) => b as FormData,
    }),
    adminT('admin.logo.saved'),
  )
}
