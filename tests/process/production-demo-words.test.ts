// Issue 47: no demo text on a production shop. A production shop (NODE_ENV=production, no demo seed,
// the owner in ADMIN_EMAILS, no SMTP_URL: mail is written to .eml files in its data folder) is set up
// through the API as an owner would (sign-up and the mailed confirmation, a PUBG game with a product
// and codes, the seller's requisites, YooKassa's SBP switched on), a guest buys and pays, the owner
// refunds; every storefront page (before the setup and after it) and every mail the shop wrote must
// hold none of the demo's words. The words are taken from the demo seed's own modules
// (api/src/demo/), so a new demo contact, promo code or article sentence is checked without an edit.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ARTICLES, DEMO_CONTACT } from '#api/demo/articles'
import { DEMO_OWNER_EMAIL } from '#api/services/admin/demo-staff'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { readMail } from '#tests/helpers/mime'
import { freePort, type ShopProcess, startShopProcess, waitFor } from '#tests/helpers/shop-process'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** A demo word and where it comes from (for the failure message). */
interface DemoWord {
  word: string
  from: string
}

/** HTML to the words a person sees: text, and the attributes read out or shown (placeholders…). */
function visible(html: string): string {
  const noCode = html.replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
  const attrs = [...noCode.matchAll(/\s(?:placeholder|title|alt|aria-label|content|value)="([^"]*)"/gi)].map(
    (m) => m[1],
  )
  return decode(`${noCode.replace(/<[^>]+>/g, ' ')} ${attrs.join(' ')}`)
}

function decode(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&nbsp;/g, ' ')
    .replace(/&laquo;/g, '«')
    .replace(/&raquo;/g, '»')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/\s+/g, ' ')
}

/** Every word of the demo the seed writes or the demo's code names (derived, so it cannot go stale). */
function demoWords(): DemoWord[] {
  const words: DemoWord[] = []
  const add = (word: string | undefined, from: string) => {
    const w = word?.trim()
    if (w && w.length >= 4) words.push({ word: w, from })
  }
  // the demo company and its contact: name, the shop's name in its «», INN, OGRN, address, e-mail, phone…
  add(DEMO_CONTACT.companyName, 'the demo contact’s company')
  add(DEMO_CONTACT.companyName.match(/«(.+)»/)?.[1], 'the demo shop’s name')
  add(DEMO_CONTACT.inn, 'the demo contact’s INN')
  add(DEMO_CONTACT.companyId, 'the demo contact’s OGRN')
  add(DEMO_CONTACT.address, 'the demo contact’s address')
  for (const line of DEMO_CONTACT.extra.split('\n'))
    add(line.split(': ').slice(1).join(': '), `the demo contact’s «${line}»`)
  // the demo's addresses: igromarket.demo, igromarket.example
  const domain = DEMO_OWNER_EMAIL.split('@')[1]!
  add(domain, 'the demo staff’s mail domain')
  add(domain.split('.')[0], 'the demo staff’s mail domain')
  // the demo's promo codes (WELCOME10…), read from the seed's source
  const seed = readFileSync(path.join(root, 'api/src/demo/seed-data.ts'), 'utf8')
  for (const m of seed.matchAll(/\bcode: '([^']+)'/g)) add(m[1], 'a demo promo code')
  // the demo articles' sentences (a made-up company's policy, agreement, «about»)
  for (const a of DEMO_ARTICLES) {
    const text = decode(a.text.replace(/<[^>]+>/g, ' '))
    for (const sentence of text.split(/(?<=[.!?])\s+/))
      if (sentence.length >= 60) add(sentence, `the demo article «${a.slug}»`)
  }
  return words
}

/** The demo words (and «демо»/«demo») found in `text`, as «word» (from) lines. */
function demoFound(text: string, words: DemoWord[]): string[] {
  const lower = text.toLowerCase()
  const found = words
    .filter((w) => lower.includes(w.word.toLowerCase()))
    .map((w) => `«${w.word.slice(0, 80)}» (${w.from})`)
  for (const m of text.matchAll(/[^\s]*(?:демо|\bdemo\b)[^\s]*/gi)) found.push(`«${m[0]}» (the word demo)`)
  return [...new Set(found)]
}

let shop: ShopProcess
let yookassa: FakeYookassa
const PASSWORD = 'Quiet-Harbour-2026'
const owner = `owner-${Date.now()}@production-words.example`
const buyer = `buyer-${Date.now()}@production-words.example`
const WORDS = demoWords()

beforeAll(async () => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  yookassa = await startFakeYookassa({ port: await freePort(), shopUrl: origin })
  shop = await startShopProcess({
    dataDir: mkdtempSync(path.join(tmpdir(), 'production-words-')),
    env: {
      PORT: String(port),
      PUBLIC_URL: origin,
      JWT_SECRET: 'production-words-secret-production-words',
      ADMIN_EMAILS: owner,
      YOOKASSA_SHOP_ID: '501234',
      YOOKASSA_SECRET_KEY: 'test_yk_secret_key',
      YOOKASSA_API_URL: yookassa.url,
      YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1',
    },
    readyTimeoutMs: 240_000,
  })
}, 300_000)

afterAll(async () => {
  await shop?.stop()
  await yookassa?.close()
})

async function api<T = Record<string, unknown>>(
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const r = await fetch(shop.url + url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await r.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: r.status, body: parsed as T }
}

/** The mails the shop wrote to files so far. */
function mails() {
  const dir = path.join(shop.dataDir, 'mail')
  let names: string[] = []
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'))
  } catch {}
  return names.map((n) => ({ file: n, ...readMail(readFileSync(path.join(dir, n), 'utf8')) }))
}

async function mailTo(to: string, subject: RegExp) {
  return waitFor(
    `a mail to ${to} ${subject}`,
    () => mails().find((m) => m.to.includes(to) && subject.test(m.subject)),
    60_000,
  )
}

/** The visible text of each page checked, by path (for the checks that the pages are the real ones). */
const seen = new Map<string, string>()

/** Storefront pages whose text is checked; each must answer (200 or a page's own 404), never a 5xx. */
async function pageProblems(paths: string[]): Promise<string[]> {
  const problems: string[] = []
  for (const p of paths) {
    const r = await fetch(shop.url + p)
    const html = await r.text()
    if (r.status >= 500) problems.push(`${p}: ${r.status}`)
    seen.set(p, visible(html))
    for (const f of demoFound(visible(html), WORDS)) problems.push(`${p}: ${f}`)
    // the demo's names and codes must not be in the page's data either
    for (const w of WORDS)
      if (
        html.toLowerCase().includes(w.word.toLowerCase()) &&
        !problems.some((x) => x.startsWith(`${p}: «${w.word.slice(0, 80)}»`))
      )
        problems.push(`${p} (page data): «${w.word.slice(0, 80)}» (${w.from})`)
  }
  return problems
}

const INFO_PAGES = [
  '/info',
  '/info/contacts',
  '/info/privacy-policy',
  '/info/user-agreement',
  '/info/consent',
  '/info/refunds',
  '/info/TextBlock',
  '/info/personal-data',
]
const BASE_PAGES = ['/', '/gifts', ...INFO_PAGES, '/orders/find', '/auth', '/auth/forgot', '/no-such-page']

describe('a production shop shows none of the demo’s words', { timeout: 240_000 }, () => {
  it('derives a real list of demo words from the demo seed', () => {
    const list = WORDS.map((w) => w.word)
    // the checks below are only as good as this list: the seed's name, codes, contact and articles
    expect(list.some((w) => /игромаркет/i.test(w))).toBe(true)
    expect(list).toContain('WELCOME10')
    expect(list).toContain(DEMO_CONTACT.inn)
    expect(list).toContain('igromarket')
    expect(WORDS.filter((w) => w.from.startsWith('the demo article')).length).toBeGreaterThan(10)
    // and the finder finds them
    expect(demoFound('Например, WELCOME10', WORDS)).toHaveLength(1)
    expect(demoFound('Это демо-магазин', WORDS)).toEqual(['«демо-магазин» (the word demo)'])
  })

  it('the storefront of a shop nobody has set up yet', async () => {
    expect(await pageProblems(BASE_PAGES)).toEqual([])
  })

  it('set up by its owner, a guest’s order paid and refunded: the pages and every mail', async () => {
    // the owner signs up with the ADMIN_EMAILS address and confirms it from the mail
    const signUp = await api<{ access: string }>('POST', '/api/auth/jwt/create/', {
      email: owner,
      password: PASSWORD,
      personal_data_consent: true,
    })
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200)
    const confirm = await mailTo(owner, /Подтвердите почту/)
    const token = confirm.text.match(/[?&]token=([^\s&)]+)/)?.[1]
    expect(token, confirm.text).toBeTruthy()
    // confirmed in the same session (the account stays as it is), then signed in again: the
    // session of before the confirmation holds no role
    expect((await api('POST', '/api/auth/email/confirm/', { token }, signUp.body.access)).status).toBe(200)
    const signIn = await api<{ access: string }>('POST', '/api/auth/jwt/create/', {
      email: owner,
      password: PASSWORD,
    })
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200)
    const access = signIn.body.access
    const admin = <T = Record<string, unknown>>(method: string, url: string, body?: unknown) =>
      api<T>(method, url, body, access)

    // the seller's requisites (receipts off: no cash register here)
    const current = await admin('GET', '/api/admin/seller/')
    expect(current.status).toBe(200)
    const seller = await admin('PUT', '/api/admin/seller/', {
      ...current.body,
      legal_form: 'ООО',
      company_name: 'Пиксель',
      inn: '7707083893',
      ogrn: '1027700132195',
      address: 'г. Казань, ул. Примерная, д. 1',
      email: 'help@production-words.example',
      phone: '+7 900 123-45-67',
      extra: '',
      tax_system: 'usn_income',
      receipts_enabled: false,
      receipt_transport: 'with_payment',
    })
    expect(seller.status, JSON.stringify(seller.body)).toBe(200)

    // a PUBG game, a product and two codes
    const game = await admin<{ id: number }>('POST', '/api/admin/games/', {
      title: 'PUBG Mobile',
      kind: 'PUBGGame',
      is_active: true,
    })
    expect(game.status, JSON.stringify(game.body)).toBeLessThan(300)
    const product = await admin<{ id: number }>('POST', `/api/admin/games/${game.body.id}/products/`, {
      title: '325 UC',
      price: '449.00',
      amount_uc: 325,
      is_active: true,
    })
    expect(product.status, JSON.stringify(product.body)).toBeLessThan(300)
    const codes = await admin('POST', `/api/admin/stock/products/${product.body.id}/codes/`, {
      text: 'PWCODE-0001-AAAA,325\nPWCODE-0002-BBBB,325',
    })
    expect(codes.status, JSON.stringify(codes.body)).toBe(200)

    // YooKassa's SBP (made at start from its keys, off) switched on
    const methods = await admin('GET', '/api/admin/payments/')
    const sbp = findMethod(methods.body, 'СБП')
    expect(sbp, JSON.stringify(methods.body).slice(0, 2000)).toBeTruthy()
    const on = await admin('PATCH', `/api/admin/payments/methods/${sbp!.id}/`, { is_active: true })
    expect(on.status, JSON.stringify(on.body)).toBeLessThan(300)

    // a guest buys and pays; the owner refunds
    const order = await api<{ id: string }>('POST', '/api/orders/pubg/', {
      products: [{ product_id: product.body.id, quantity: 1 }],
      email: buyer,
      personal_data_consent: true,
    })
    expect(order.status, JSON.stringify(order.body)).toBe(201)
    const orderId = order.body.id
    const payment = await api<{ payment_id: string }>('POST', `/api/payments/${sbp!.name}/`, {
      order_id: orderId,
      currency: 'RUB',
      email: null,
      phone: null,
    })
    expect(payment.status, JSON.stringify(payment.body)).toBe(200)
    const paid = yookassa.paymentOf(payment.body.payment_id)
    expect(paid).toBeTruthy()
    yookassa.succeed(paid!.id)
    expect(await yookassa.notify(shop.url, 'payment.succeeded', paid!)).toBe(200)
    await mailTo(buyer, /выполнен/)
    const pagesOfOrder = [`/orders/${orderId}/pay`, `/orders/${orderId}/status`]
    const refund = await admin('POST', `/api/admin/orders/${orderId}/refund/`, { reason: 'Код не подошёл' })
    expect(refund.status, JSON.stringify(refund.body)).toBeLessThan(300)
    await mailTo(buyer, /Возврат/)
    // the buyer asks for the list of their orders, and a password reset for the owner
    expect((await api('POST', '/api/orders/lookup/', { email: buyer })).status).toBe(202)
    expect((await api('POST', '/api/auth/password/reset/', { email: owner })).status).toBe(202)
    await mailTo(buyer, /заказ/i)
    await waitFor('the lookup and reset mails', () => mails().length >= 5, 60_000)

    const problems = await pageProblems([
      ...BASE_PAGES,
      `/products/${game.body.id}`,
      ...pagesOfOrder,
      '/sitemap.xml',
      '/robots.txt',
    ])
    // the pages checked are the real ones: the owner's game and product, the order's pay page
    expect(seen.get(`/products/${game.body.id}`)).toContain('325 UC')
    expect(seen.get('/info/contacts')).toContain('7707083893')
    expect(seen.get(`/orders/${orderId}/pay`)).toContain('PUBG Mobile')
    for (const m of mails()) {
      const text = `${m.subject}\n${m.headers.get('from') ?? ''}\n${m.text}\n${visible(m.html)}`
      for (const f of demoFound(text, WORDS)) problems.push(`mail «${m.subject}»: ${f}`)
    }
    expect(problems).toEqual([])
  })
})

/** The method titled `title` in the back-office's payments tree (any depth). */
function findMethod(tree: unknown, title: string): { id: number; name: string } | undefined {
  if (!tree || typeof tree !== 'object') return undefined
  const o = tree as Record<string, unknown>
  if (o.title === title && typeof o.id === 'number' && typeof o.name === 'string')
    return { id: o.id, name: o.name }
  for (const v of Object.values(o)) {
    const found = findMethod(v, title)
    if (found) return found
  }
  return undefined
}
