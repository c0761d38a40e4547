// Issue 44: the back-office article form and the API's article schema agree. The API takes an
// article of ARTICLE_TEXT_MAX (200,000) characters; the storefront's own body limit for forms
// (server/body-limit.ts) was 192 KB, so an article the contract allows could not be saved from the
// form. Urlencoded, one character is at most 9 bytes («—» is 3 bytes of UTF-8, each sent as %XX);
// the article form's limit is that times the schema's lengths, from the same constants.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { ARTICLE_HEADER_MAX, ARTICLE_TEXT_MAX } from '#api/routes/admin/catalogue/texts'
import { contractDoc } from '#tests/helpers/contract'
import { ADMIN_FORM_BYTES, ARTICLE_FORM_BYTES, storefrontBodyLimit } from '../../server/body-limit'

const app = new Hono()
app.use('*', storefrontBodyLimit({ multipartBytes: 10 * 1024 * 1024 }))
app.post('*', async (c) => {
  const form = await c.req.formData()
  return c.json({ text: String(form.get('text') ?? '').length })
})

const post = (path: string, body: string) =>
  app.request(path, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    },
  })

/** The form as a browser sends it: the longest article, written in the costliest characters. */
function longestArticleForm(): string {
  return new URLSearchParams({
    intent: 'save',
    form_key: 'k'.repeat(64),
    slug: 'privacy-policy',
    header: '—'.repeat(ARTICLE_HEADER_MAX),
    text: '—'.repeat(ARTICLE_TEXT_MAX),
  }).toString()
}

describe('the article form and the article schema agree', () => {
  it('the form limit is derived from the schema the contract publishes', () => {
    const input = contractDoc.components?.schemas?.AdminArticleInput as {
      properties: Record<string, { maxLength: number }>
    }
    expect(input.properties.text!.maxLength).toBe(ARTICLE_TEXT_MAX)
    expect(input.properties.header!.maxLength).toBe(ARTICLE_HEADER_MAX)
  })

  it('the longest article the API takes, all «—» (9 bytes each urlencoded), passes the form limit', async () => {
    const body = longestArticleForm()
    expect(Buffer.byteLength(body)).toBeGreaterThan(ADMIN_FORM_BYTES) // the old limit refused it
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(ARTICLE_FORM_BYTES)
    const r = await post('/admin/articles', body)
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ text: ARTICLE_TEXT_MAX })
  })

  it('a 200,000-character Cyrillic article with line breaks (6 bytes a character) passes too', async () => {
    const text = 'Политика\r\n'.repeat(ARTICLE_TEXT_MAX / 10)
    const r = await post('/admin/articles', new URLSearchParams({ intent: 'save', text }).toString())
    expect(r.status).toBe(200)
  })

  it('other back-office forms keep their limit, and a body beyond the article limit is a 413', async () => {
    expect((await post('/admin/faq', longestArticleForm())).status).toBe(413)
    const over = `text=${'a'.repeat(ARTICLE_FORM_BYTES)}`
    const r = await post('/admin/articles', over)
    expect(r.status).toBe(413)
    expect(await r.text()).toContain('<html lang="ru">')
  })
})
