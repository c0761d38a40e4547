// GET /media/<name>: uploaded images, from the database, so any instance serves any upload. A name
// is random and its bytes never change, so browsers and proxies may keep it for a year; the tag
// is the bytes' SHA-256. Not part of the JSON contract (the avatar fields carry these paths).
import type { ApiApp } from '../context'
import { readUpload } from '../services/uploads/store'

export const MEDIA_ROUTE = '/media/:name{[0-9a-f]{32}\\.(png|jpg|gif|webp)}'

export function registerMedia(app: ApiApp) {
  app.get(MEDIA_ROUTE, async (c) => {
    const name = c.req.param('name')
    const upload = await readUpload(c.var.deps.db, name)
    if (!upload) return c.notFound()
    const headers = new Headers({
      'content-type': upload.contentType,
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${upload.sha256}"`,
      'x-content-type-options': 'nosniff',
      // shown in the page, never run or saved under a name of the uploader's choosing
      'content-disposition': `inline; filename="${name}"`,
    })
    const tags = c.req.header('if-none-match')
    if (
      tags &&
      (tags.trim() === '*' ||
        tags.split(',').some((t) => t.trim().replace(/^W\//, '') === headers.get('etag')))
    )
      return new Response(null, { status: 304, headers })
    headers.set('content-length', String(upload.size))
    return new Response(new Uint8Array(upload.bytes), { status: 200, headers })
  })
}
