// The shop's own name, logo and support contacts (issue 37): owner only, validated, audited; used
// by the storefront (/api/shop/) and by every mail; «ИгроМаркет» only as the demo's default.
import { describe, expect } from 'vitest'
import { auditLog } from '#api/db/schema'
import { renderMail } from '#api/services/mail/render'
import { getShopSettings } from '#api/services/shop/settings'
import { apiTest } from '#tests/helpers/fixtures'

const it = apiTest({ seed: false })

const body = {
  name: 'Лавка Геймера',
  logo: '/media/logo.png',
  support_email: 'help@lavka.example',
  support_phone: '+7 900 123-45-67',
}

describe('shop settings', () => {
  it('before the owner saves: the demo default in the demo, a neutral name in production', async ({
    api,
    owner,
  }) => {
    expect((await getShopSettings(api.db, { demo: true })).name).toBe('ИгроМаркет')
    expect(await getShopSettings(api.db, { demo: false })).toMatchObject({ name: 'Магазин', saved: false })
    const r = await api.call<{ saved: boolean }>('GET', '/api/shop/')
    expect(r.status).toBe(200)
    expect(r.body.saved).toBe(false)
    const ov = await api.call<{ setup: { shop_named: boolean } }>('GET', '/api/admin/overview/', {
      token: owner.token,
    })
    expect(ov.body.setup.shop_named).toBe(false)
  })

  it('only the owner edits them; bad values are refused with a message per field', async ({
    api,
    owner,
    support,
  }) => {
    expect((await api.call('PUT', '/api/admin/shop/', { body })).status).toBe(404)
    expect((await api.call('PUT', '/api/admin/shop/', { body, token: support.token })).status).toBe(403)
    const bad = await api.call<{ fields: Record<string, string[]> }>('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { name: ' ', logo: 'javascript:alert(1)', support_email: 'nope', support_phone: 'звоните' },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.fields).sort()).toEqual(['logo', 'name', 'support_email', 'support_phone'])
    const slashes = await api.call('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...body, logo: '//evil.example/x.png' },
    })
    expect(slashes.status).toBe(400)
  })

  it('saved by the owner: public, audited, on the overview, and in the next mail', async ({ api, owner }) => {
    type Doc = { info: { title: string } }
    const before = await api.app.request('/api/docs/schema/?lang=ru')
    expect(((await before.clone().json()) as Doc).info.title).toBe('API магазина игровых пополнений')
    const r = await api.call('PUT', '/api/admin/shop/', { token: owner.token, body })
    expect(r.status).toBe(200)
    // the time zone (decision 136) follows SHOP_TIMEZONE (Moscow) while none was chosen
    // the extensions a client that sends only the spec's fields did not set: empty (issues 47, 50)
    expect(r.body).toEqual({ ...body, time_zone: 'Europe/Moscow', tagline: '', support_hours: '' })
    expect((await api.call('GET', '/api/shop/')).body).toMatchObject({
      ...body,
      time_zone: 'Europe/Moscow',
      saved: true,
    })
    const audits = await api.db.select().from(auditLog)
    expect(audits.map((a) => a.action)).toContain('shop.update')
    const ov = await api.call<{ setup: { shop_named: boolean; shop_name: string } }>(
      'GET',
      '/api/admin/overview/',
      {
        token: owner.token,
      },
    )
    expect(ov.body.setup).toMatchObject({ shop_named: true, shop_name: 'Лавка Геймера' })
    const mail = await renderMail(
      'password_changed',
      {},
      { db: api.db, config: api.config, to: owner.email, now: new Date(), demo: true },
    )
    expect(mail?.text).toContain('Лавка Геймера')
    expect(mail?.text).not.toContain('ИгроМаркет')
    expect(mail?.html).not.toContain('ИгроМаркет')
    // the contract's document names the shop too, under a new ETag (a cached copy is not reused)
    const after = await api.app.request('/api/docs/schema/?lang=ru')
    expect(((await after.json()) as Doc).info.title).toBe('API магазина «Лавка Геймера»')
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    const en = (await (await api.app.request('/api/docs/schema/?lang=en')).json()) as Doc
    expect(en.info.title).toBe('Лавка Геймера: shop API')
  })
})
