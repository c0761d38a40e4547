// Support hours (issue 50): the owner says when support answers, in their own words; the storefront
// shows it beside the support contact under each game's header. Our extension of the shop settings:
// optional, so a client that knows only the spec's fields keeps working and keeps the hours.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog } from '#api/db/schema'
import { makeStaff } from '#tests/helpers/fixtures'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

let api: TestApi
let owner: { email: string; token: string }
let support: { email: string; token: string }
beforeAll(async () => {
  api = await createTestApi({ seed: false })
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
})
afterAll(() => api?.close())

/** The spec's fields only. */
const settings = {
  name: 'Лавка Геймера',
  logo: '',
  support_email: 'help@lavka.example',
  support_phone: '+7 900 123-45-67',
}

type Answer = { support_hours?: string; detail?: string; fields?: Record<string, string[]> }

const put = (body: Record<string, unknown>, token = owner.token) =>
  api.call<Answer>('PUT', '/api/admin/shop/', { token, body })
const publicHours = async () => (await api.call<Answer>('GET', '/api/shop/')).body.support_hours

describe('support hours in the shop settings', () => {
  it('empty until the owner says them; the spec’s fields alone save', async () => {
    expect(await publicHours()).toBe('')
    const r = await put(settings)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.support_hours).toBe('')
  })

  it('saved trimmed by the owner: public, in the owner’s read, audited; absent keeps them, empty clears', async () => {
    const hours = 'ежедневно с 10 до 22 МСК'
    const r = await put({ ...settings, support_hours: `  ${hours} ` })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.support_hours).toBe(hours)
    expect(await publicHours()).toBe(hours)
    const admin = await api.call<Answer>('GET', '/api/admin/shop/', { token: owner.token })
    expect(admin.body.support_hours).toBe(hours)
    const entries = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'shop.update'), eq(auditLog.entity, 'shop')))
    expect(entries.at(-1)?.after).toMatchObject({ support_hours: hours })

    // a client that knows only the spec's fields leaves them as they are
    expect((await put({ ...settings, support_phone: '+7 900 765-43-21' })).status).toBe(200)
    expect(await publicHours()).toBe(hours)

    expect((await put({ ...settings, support_hours: '' })).status).toBe(200)
    expect(await publicHours()).toBe('')
  })

  it('refused in Russian per field: too long, a line break or a control or invisible character, not a string', async () => {
    const cases: Array<[unknown, string]> = [
      ['я'.repeat(81), 'часы работы поддержки — не длиннее 80 символов'],
      ['с 10\nдо 22', 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      ['с 10\u0007 до 22', 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      ['круглосуточно\u202e', 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      ['с\u200b10', 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      // blanks and piles the published pattern lets through (review L-c)
      ['\u3164\u3164', 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      ['с 10 до 22\u{e0041}', 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      [`а${'\u0301'.repeat(8)}`, 'часы работы поддержки — одной строкой, без переносов и служебных символов'],
      [22, 'часы работы поддержки — текстом, например «ежедневно с 10 до 22 МСК»'],
    ]
    for (const [support_hours, message] of cases) {
      const r = await put({ ...settings, support_hours })
      expect(r.status, JSON.stringify(support_hours)).toBe(400)
      expect(r.body.fields?.support_hours?.[0]).toBe(message)
    }
    expect(await publicHours()).toBe('')
    expect((await put({ ...settings, support_hours: 'я'.repeat(80) })).status).toBe(200)
    expect(await publicHours()).toBe('я'.repeat(80))
  })

  it('only the owner sets them', async () => {
    const r = await put({ ...settings, support_hours: 'круглосуточно' }, support.token)
    expect(r.status).toBe(403)
    expect(await publicHours()).not.toBe('круглосуточно')
  })
})
