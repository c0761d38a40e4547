// The overview's «Что ещё не настроено» lines link to the screen that fixes each (issues 33, 37).
import { describe, expect, it } from 'vitest'
import { setupLines } from '#app/lib/admin/overview-setup'
import type { TFunction } from '#app/i18n/translate'

const t: TFunction = (key, params) => `${key}${params ? JSON.stringify(params) : ''}`
const ready = { shop_named: true, shop_name: 'Ромашка', payment_methods: 2 }

describe('overview setup lines', () => {
  it('a ready shop has none', () => {
    expect(setupLines({ setup: ready, seller_warnings: [], failed_receipts: [] }, t)).toEqual([])
  })

  it('every seller warning links to «Реквизиты и чеки»', () => {
    const warnings = ['Не заполнены реквизиты: ИНН, ОГРН', 'Чеки выключены']
    const lines = setupLines({ setup: ready, seller_warnings: warnings, failed_receipts: [] }, t)
    expect(lines.map((l) => [l.text, l.to])).toEqual([
      [warnings[0], '/admin/seller'],
      [warnings[1], '/admin/seller'],
    ])
  })

  it('refused receipts link to their list on the seller screen; shop and payments to theirs', () => {
    const failed = [{ id: 1, order_id: '00000000-0000-4000-8000-000000000001', kind: 'sell', reason: 'ИНН' }]
    const lines = setupLines(
      { setup: { shop_named: false, shop_name: 'Магазин', payment_methods: 0 }, failed_receipts: failed },
      t,
    )
    expect(lines.map((l) => l.to)).toEqual(['/admin/shop', '/admin/payments', '/admin/seller#failed-heading'])
    expect(lines[2]?.text).toBe('admin.overview_alerts.failed_receipts{"n":1}')
  })

  it('each legal document not published opens its template on /admin/articles (issue 47)', () => {
    const lines = setupLines(
      { setup: { ...ready, missing_articles: ['consent', 'refunds'] }, seller_warnings: [] },
      t,
    )
    expect(lines.map((l) => [l.key, l.to])).toEqual([
      ['article:consent', '/admin/articles?template=consent#article-template'],
      ['article:refunds', '/admin/articles?template=refunds#article-template'],
    ])
    expect(lines[0]?.text).toBe('admin.overview_alerts.legal_missing{"title":"legal.pages.consent.title"}')
  })
})
