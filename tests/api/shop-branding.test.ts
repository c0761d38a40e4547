// A shop set up without tricks (issue 47): the owner uploads the shop's logo at /admin/shop with
// the checks of the other uploads (bytes, size, no SVG, metadata stripped, owner only, audited;
// the replaced upload goes), and sets the tagline under the name in the footer and the mails.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, uploads } from '#api/db/schema'
import { renderMail } from '#api/services/mail/render'
import { GIF, PNG, pngWithMetadata, SECRET } from '#tests/helpers/images'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'

let api: TestApi
let owner: { email: string; token: string }
let support: { email: string; token: string }
beforeAll(async () => {
  api = await createTestApi({ seed: false })
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
})
afterAll(() => api?.close())

const settings = {
  name: 'Лавка Геймера',
  logo: '',
  support_email: 'help@lavka.example',
  support_phone: '+7 900 123-45-67',
}

type Answer = {
  logo: string
  detail?: string
  code?: string
  fields?: Record<string, string[]>
}

async function upload(file: Buffer | string | null, token = owner.token, field = 'logo') {
  const form = new FormData()
  if (file !== null)
    form.set(field, new Blob([typeof file === 'string' ? file : new Uint8Array(file)]), 'logo.png')
  const res = await api.app.request('/api/admin/shop/logo/', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return { status: res.status, body: (await res.json()) as Answer }
}

const shopUploads = () => api.db.select({ name: uploads.name }).from(uploads).where(eq(uploads.shop, true))
const auditOf = (action: string) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entity, 'shop')))

describe('the shop logo upload', () => {
  it('asks for the shop’s name first: nothing is stored before the settings are saved', async () => {
    const early = await upload(PNG)
    expect(early.status).toBe(409)
    expect(early.body.detail).toBe('Сначала сохраните название магазина, затем загрузите логотип')
    expect(await shopUploads()).toEqual([])
    const shop = await api.call<{ saved: boolean; logo: string }>('GET', '/api/shop/')
    expect(shop.body).toMatchObject({ saved: false, logo: '' })
  })

  it('owner: stored without metadata, served from /media/, the shop’s logo, audited; the next replaces it', async () => {
    expect((await api.call('PUT', '/api/admin/shop/', { token: owner.token, body: settings })).status).toBe(
      200,
    )
    const first = await upload(pngWithMetadata())
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.logo).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    const served = await api.app.request(first.body.logo)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await served.arrayBuffer()).includes(SECRET)).toBe(false)
    expect((await api.call<{ logo: string }>('GET', '/api/shop/')).body.logo).toBe(first.body.logo)
    expect(
      (await api.call<{ logo: string }>('GET', '/api/admin/shop/', { token: owner.token })).body.logo,
    ).toBe(first.body.logo)

    const second = await upload(GIF)
    expect(second.status).toBe(200)
    expect(second.body.logo).toMatch(/^\/media\/[0-9a-f]{32}\.gif$/)
    const gif = await api.app.request(second.body.logo)
    expect(gif.headers.get('content-type')).toBe('image/gif')
    // the replaced upload is gone, one row is the shop's
    expect((await api.app.request(first.body.logo)).status).toBe(404)
    expect(await shopUploads()).toEqual([{ name: second.body.logo.slice('/media/'.length) }])
    const entries = await auditOf('shop.logo')
    expect(entries.map((e) => [e.actorEmail, e.before, e.after])).toEqual([
      [owner.email, { logo: '' }, { logo: first.body.logo }],
      [owner.email, { logo: first.body.logo }, { logo: second.body.logo }],
    ])
  })

  it('refuses a non-owner, an SVG, a file too big, no file and a non-multipart body, in Russian', async () => {
    const before = await shopUploads()
    expect((await upload(PNG, support.token)).status).toBe(403)
    const shopper = await makeUser(api)
    expect((await upload(PNG, shopper.token)).status).toBe(404)

    const svg = await upload('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')
    expect(svg.status).toBe(400)
    expect(svg.body.fields?.logo?.[0]).toBe('Логотип должен быть изображением PNG, JPEG, WebP или GIF')

    const big = await upload(Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]))
    expect(big.status).toBe(413)
    expect(big.body.detail).toBe('Файл логотипа больше 2 МБ')

    const none = await upload(null)
    expect(none.status).toBe(400)
    expect(none.body.fields?.logo?.[0]).toBe('Выберите файл логотипа')
    const wrongField = await upload(PNG, owner.token, 'icon')
    expect(wrongField.status).toBe(400)

    const json = await api.call<Answer>('POST', '/api/admin/shop/logo/', {
      token: owner.token,
      body: { logo: 'x' },
    })
    expect(json.status).toBe(415)
    expect(json.body.detail).toMatch(/[а-я]/)
    // nothing refused was stored or changed
    expect(await shopUploads()).toEqual(before)
  })

  it('a logo address typed instead of the upload deletes the upload', async () => {
    expect(await shopUploads()).toHaveLength(1)
    const r = await api.call('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...settings, logo: '/favicon.svg' },
    })
    expect(r.status).toBe(200)
    expect(await shopUploads()).toEqual([])
    // and saving the upload's own address keeps it
    const again = await upload(PNG)
    const keep = await api.call('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...settings, logo: again.body.logo, support_phone: '+7 900 000-00-00' },
    })
    expect(keep.status).toBe(200)
    expect(await shopUploads()).toHaveLength(1)
    expect((await api.app.request(again.body.logo)).status).toBe(200)
  })

  it('a settings form opened before the last upload cannot bring back the old logo (found by review)', async () => {
    const first = await upload(PNG)
    const second = await upload(GIF)
    expect(second.status).toBe(200)
    // the first form, still open, saves the phone with the first upload's address in it
    const stale = await api.call<Answer>('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...settings, logo: first.body.logo, support_phone: '+7 900 111-11-11' },
    })
    expect(stale.status).toBe(400)
    expect(stale.body.code).toBe('shop_logo_gone')
    expect(stale.body.fields?.logo?.[0]).toMatch(/^Этой картинки больше нет на сайте/)
    // the newer logo is still the shop's and still served
    const now = await api.call<Answer>('GET', '/api/admin/shop/', { token: owner.token })
    expect(now.body.logo).toBe(second.body.logo)
    expect(await shopUploads()).toEqual([{ name: second.body.logo.slice('/media/'.length) }])
    expect((await api.app.request(second.body.logo)).status).toBe(200)
  })
})

describe('the tagline', () => {
  const mail = () =>
    renderMail('password_changed', {}, { db: api.db, config: api.config, to: owner.email, now: new Date() })

  it('empty by default: the built-in line in the mails; optional in the settings', async () => {
    expect((await api.call<{ tagline: string }>('GET', '/api/shop/')).body.tagline).toBe('')
    expect((await mail())?.text).toContain('Пополнение игр и подарочные карты')
  })

  it('saved by the owner: public, in the next mail, audited; absent leaves it, empty restores the default', async () => {
    const tagline = 'Пополнение Steam за час, коды PUBG сразу'
    const r = await api.call<{ tagline: string }>('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...settings, tagline: `  ${tagline} ` },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.tagline).toBe(tagline)
    expect((await api.call<{ tagline: string }>('GET', '/api/shop/')).body.tagline).toBe(tagline)
    const sent = await mail()
    expect(sent?.text).toContain(tagline)
    expect(sent?.html).toContain(tagline)
    expect(sent?.text).not.toContain('Пополнение игр и подарочные карты')
    const [entry] = (await auditOf('shop.update')).slice(-1)
    expect(entry?.after).toMatchObject({ tagline })

    // a client that does not know the field keeps it
    expect((await api.call('PUT', '/api/admin/shop/', { token: owner.token, body: settings })).status).toBe(
      200,
    )
    expect((await api.call<{ tagline: string }>('GET', '/api/shop/')).body.tagline).toBe(tagline)

    await api.call('PUT', '/api/admin/shop/', { token: owner.token, body: { ...settings, tagline: '' } })
    expect((await api.call<{ tagline: string }>('GET', '/api/shop/')).body.tagline).toBe('')
    expect((await mail())?.text).toContain('Пополнение игр и подарочные карты')
  })

  it('validated: at most 120 characters, one line, a string', async () => {
    const cases: Array<[unknown, string]> = [
      ['я'.repeat(121), 'не длиннее 120 символов'],
      ['первая строка\nвторая', 'одной строкой, без переносов'],
      // a line separator, a bidi override and a zero-width space would break or reorder the line
      ['первая строка\u2028вторая', 'одной строкой, без переносов'],
      ['цена \u202e₽ 001', 'одной строкой, без переносов'],
      ['невидимый\u200bзнак', 'одной строкой, без переносов'],
      [42, 'ожидается строка'],
    ]
    for (const [tagline, message] of cases) {
      const r = await api.call<Answer>('PUT', '/api/admin/shop/', {
        token: owner.token,
        body: { ...settings, tagline },
      })
      expect(r.status).toBe(400)
      expect(r.body.fields?.tagline?.[0]).toBe(message)
    }
    const max = await api.call('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...settings, tagline: 'я'.repeat(120) },
    })
    expect(max.status).toBe(200)
  })
})
