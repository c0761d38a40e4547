// The legal documents as setup steps (issue 47): the owner gets each document's template filled
// with the seller's requisites, publishes it by saving the article, and until then the overview
// lists it; a production seed brings no demo legal texts or contacts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { articles, contacts, games } from '#api/db/schema'
import { seedDemoData } from '#api/demo/seed-data'
import { grantRole } from '#api/services/admin/roles'
import { legalTemplate } from '#api/services/content/legal-templates'
import type { SellerSettings } from '#api/services/receipts/settings'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { openTestDatabase } from '#tests/helpers/test-db'
import { makeUser } from './orders-fixtures'

type Template = { slug: string; header: string; text: string; missing_requisites: string[] }
type Overview = { setup: { missing_articles?: string[] } }

const SELLER = {
  legal_form: 'ООО',
  company_name: 'Ромашка',
  inn: '7707083893',
  ogrn: '1027700132195',
  address: 'Москва, ул. Тестовая, 1',
  email: 'shop@romashka.example',
  phone: '',
  extra: '',
  tax_system: 'usn_income',
  receipts_enabled: false,
  receipt_transport: 'sandbox',
  item_rules: {
    codes: { vat: 'none', payment_object: 'commodity' },
    topup: { vat: 'none', payment_object: 'service' },
    gift: { vat: 'none', payment_object: 'commodity' },
    steam_topup: { vat: 'none', payment_object: 'payment' },
    commission: { vat: 'none', payment_object: 'service' },
  },
}

let api: TestApi
let owner: { email: string; token: string }
let support: { email: string; token: string }
beforeAll(async () => {
  // a new shop: no seed, so no article at all
  api = await createTestApi({ seed: false, env: { PUBLIC_URL: 'https://romashka.example' } })
  owner = await makeUser(api)
  support = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'test')
  await grantRole(api.db, support.email, 'support', 'test')
})
afterAll(() => api?.close())

const template = (slug: string, token?: string) =>
  api.call<Template>('GET', `/api/admin/articles/${slug}/template/`, { token })
const missingArticles = async () =>
  (await api.call<Overview>('GET', '/api/admin/overview/', { token: owner.token })).body.setup
    .missing_articles

describe('legal document templates', () => {
  it('only the owner reads them; a slug without a template is a Russian 404', async () => {
    expect((await template('privacy-policy')).status).toBe(404)
    expect((await template('privacy-policy', support.token)).status).toBe(403)
    const other = await api.call<{ code: string; detail: string }>(
      'GET',
      '/api/admin/articles/TextBlock/template/',
      {
        token: owner.token,
      },
    )
    expect(other.status).toBe(404)
    expect(other.body.code).toBe('article_template_not_found')
    expect(other.body.detail).toMatch(/^Для статьи «TextBlock» нет шаблона/)
    expect((await template('bad%20slug', owner.token)).status).toBe(400)
    // names of the object's own machinery are slugs like any other, without a template (the fuzzer
    // found «constructor» answered 500)
    for (const slug of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await template(slug, owner.token)
      expect(r.status, slug).toBe(404)
      expect((r.body as { code?: string }).code, slug).toBe('article_template_not_found')
    }
  })

  it('before the requisites are saved each one is marked in the text and named', async () => {
    const r = await template('consent', owner.token)
    expect(r.status).toBe(200)
    expect(r.body.header).toBe('Согласие на обработку персональных данных')
    expect(r.body.missing_requisites).toEqual(['название', 'ИНН', 'ОГРН или ОГРНИП', 'адрес', 'почта'])
    expect(r.body.text).toContain('[ИНН — заполните в «Реквизиты и чеки»]')
    expect(r.body.text).not.toMatch(/\{\w+\}/)
    // published as it is, the document would have blanks where the seller belongs: refused, in
    // Russian, naming them; nothing is saved
    const publish = await api.call<{ code: string; fields?: Record<string, string[]> }>(
      'PUT',
      '/api/admin/articles/consent/',
      { token: owner.token, body: { header: r.body.header, text: r.body.text } },
    )
    expect(publish.status).toBe(400)
    expect(publish.body.code).toBe('article_requisites_unfilled')
    expect(publish.body.fields?.text?.[0]).toMatch(
      /^В тексте остались незаполненные реквизиты \(название, ИНН/,
    )
    expect(await missingArticles()).toContain('consent')
  })

  it.each(['privacy-policy', 'consent', 'user-agreement', 'refunds'])(
    '%s is filled with the saved requisites, the shop address and no demo company',
    async (slug) => {
      const saved = await api.call('PUT', '/api/admin/seller/', { token: owner.token, body: SELLER })
      expect(saved.status, JSON.stringify(saved.body)).toBe(200)
      const r = await template(slug, owner.token)
      expect(r.status).toBe(200)
      expect(r.body.slug).toBe(slug)
      expect(r.body.missing_requisites).toEqual([])
      expect(r.body.text).toContain('ООО Ромашка')
      expect(r.body.text).toContain('ИНН 7707083893')
      expect(r.body.text).toContain('ОГРН 1027700132195')
      expect(r.body.text).toContain('<a href="mailto:shop@romashka.example">shop@romashka.example</a>')
      expect(r.body.text).not.toMatch(/\{\w+\}|заполните в|ИгроМаркет|igromarket/)
      expect(r.body.text).toContain('Москва, ул. Тестовая, 1')
      expect(r.body.text).toContain('https://romashka.example')
    },
  )

  it('publishing each document takes it off the overview’s setup list', async () => {
    expect(await missingArticles()).toEqual(['privacy-policy', 'consent', 'user-agreement', 'refunds'])
    const filled = (await template('refunds', owner.token)).body
    const put = await api.call('PUT', '/api/admin/articles/refunds/', {
      token: owner.token,
      body: { header: filled.header, text: filled.text },
    })
    expect(put.status).toBe(200)
    expect(await missingArticles()).toEqual(['privacy-policy', 'consent', 'user-agreement'])
    const shown = await api.call<{ text: string }>('GET', '/api/articles/refunds/')
    expect(shown.status).toBe(200)
    expect(shown.body.text).toContain('ИНН 7707083893')
    // another article (not a legal document) changes nothing there
    await api.call('PUT', '/api/admin/articles/about/', {
      token: owner.token,
      body: { header: 'О нас', text: '' },
    })
    expect(await missingArticles()).toEqual(['privacy-policy', 'consent', 'user-agreement'])
  })
})

describe('filling a template', () => {
  const seller: SellerSettings = {
    legalForm: 'ИП',
    companyName: 'Иванов <b>Иван</b> & сын',
    inn: '500100732259',
    ogrn: '304500116000157',
    address: 'Тула, ул. Ленина, 2',
    email: 'ip@example.com',
    phone: '',
    extra: '',
    taxSystem: 'usn_income',
    receiptsEnabled: false,
    transport: 'sandbox',
    itemRules: {} as SellerSettings['itemRules'],
    saved: true,
  }
  const shop = { name: 'Лавка', url: 'https://lavka.example', timeZone: 'Europe/Moscow' }

  it('labels an individual entrepreneur’s number ОГРНИП, escapes the requisites and dates the edition', () => {
    const t = legalTemplate('user-agreement', seller, shop, new Date('2026-12-01T22:30:00Z'))!
    expect(t.text).toContain('ОГРНИП 304500116000157')
    expect(t.text).not.toContain('ОГРН 304500116000157')
    expect(t.text).toContain('ИП Иванов &#60;b&#62;Иван&#60;/b&#62; &#38; сын')
    expect(t.text).not.toContain('<b>')
    // 22:30 UTC is already 2 December in Moscow
    expect(t.text).toContain('Редакция от 2 декабря 2026 г.')
    expect(legalTemplate('about', seller, shop)).toBeNull()
  })
})

describe('the demo seed', () => {
  it('brings the demo articles and contacts in the demo, none with the production options', async () => {
    for (const [opts, expected] of [
      [{}, true],
      [{ staff: false, texts: false }, false],
    ] as const) {
      const database = await openTestDatabase()
      try {
        await seedDemoData(database.db, opts)
        expect((await database.db.select().from(games)).length).toBeGreaterThan(0)
        expect((await database.db.select().from(articles)).length > 0).toBe(expected)
        expect((await database.db.select().from(contacts)).length > 0).toBe(expected)
      } finally {
        await database.close()
      }
    }
  })
})
