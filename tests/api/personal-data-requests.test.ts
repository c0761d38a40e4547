// Requests about personal data (152-ФЗ, issue 33): a request is only a mail with a link until the
// link is opened (the token kept hashed, with an expiry); then it is a staff task due in 10 working
// days and the requester is mailed the deadline. Limits per address and per email, sizes, roles,
// and the audited «выполнено».
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, dataRequests, jobs } from '#api/db/schema'
import { HOUSEKEEPING_HANDLERS } from '#api/jobs/housekeeping'
import { renderMail } from '#api/services/mail/render'
import { dataRequestToken } from '#api/services/personal-data/requests'
import { addWorkingDays } from '#api/services/personal-data/working-days'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'

let api: TestApi
let n = 0
const from = () => ({ 'x-shop-client-ip': `10.9.0.${++n}` })
const email = () => `pd-${Date.now()}-${++n}@example.com`

beforeAll(async () => {
  api = await createTestApi()
}, 240_000)
afterAll(async () => {
  await api?.close()
})

const ask = (body: Record<string, unknown>, headers = from()) =>
  api.call<{ detail: string; code?: string }>('POST', '/api/personal-data/requests/', { body, headers })
const confirm = (token: string, headers = from()) =>
  api.call<{ kind: string; status: string; due_date: string; detail?: string }>(
    'POST',
    '/api/personal-data/requests/confirm/',
    { body: { token }, headers },
  )
const rowFor = async (address: string) =>
  (await api.db.select().from(dataRequests).where(eq(dataRequests.email, address)))[0]!
const mailJobs = (template: string, address: string) =>
  api.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'mail.send')))
    .then((all) =>
      all.filter(
        (j) =>
          (j.payload as { template: string; to: string }).template === template &&
          (j.payload as { to: string }).to === address,
      ),
    )
const tokenOf = (id: string) => dataRequestToken(api.config.jwtSecret, id)

describe('the request', () => {
  it('is stored unconfirmed with only the hash of its link, and mails the link; no staff task yet', async () => {
    const to = email()
    const r = await ask({ email: to.toUpperCase(), kind: 'deletion', text: 'Удалите всё обо мне' })
    expect(r.status).toBe(202)
    expect(r.body.detail).toContain('Мы отправили письмо со ссылкой')
    const row = await rowFor(to)
    expect(row).toMatchObject({
      status: 'unconfirmed',
      kind: 'deletion',
      text: 'Удалите всё обо мне',
      dueDate: null,
    })
    const token = tokenOf(row.id)
    expect(row.tokenHash).not.toBe(token)
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row.tokenExpiresAt.getTime() - row.created.getTime()).toBe(48 * 3600 * 1000)
    // the link is in the mail, not in the job's payload
    const [job] = await mailJobs('data_request_confirm', to)
    expect(JSON.stringify(job!.payload)).not.toContain(token)
    const mail = await renderMail('data_request_confirm', job!.payload.data as never, {
      db: api.db,
      config: api.config,
      to,
      now: new Date(),
    })
    expect(mail?.subject).toBe('Подтвердите запрос о персональных данных')
    expect(mail?.text).toContain(`/info/personal-data/confirm?token=${token}`)
    expect(mail?.text).toContain('удалить данные')

    const owner = await makeStaff(api, 'owner')
    const list = await api.call<Array<{ id: string }>>('GET', '/api/admin/data-requests/', {
      token: owner.token,
    })
    expect(list.body.map((x) => x.id)).not.toContain(row.id)
  })

  it('refuses a wrong email, an unknown kind and an oversized text, in Russian', async () => {
    const bad = await ask({ email: 'not-an-email', kind: 'access', text: '' })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toContain('Неверный адрес электронной почты')
    expect((await ask({ email: email(), kind: 'sell-it', text: '' })).status).toBe(400)
    const long = await ask({ email: email(), kind: 'correction', text: 'я'.repeat(2001) })
    expect(long.status).toBe(400)
    expect(long.body.detail).toContain('Не длиннее 2000 символов')
  })

  it('is limited per email (3 an hour, from any address) and per client address (10 an hour)', async () => {
    const to = email()
    for (let i = 0; i < 3; i++) expect((await ask({ email: to, kind: 'access' })).status).toBe(202)
    const fourth = await ask({ email: to, kind: 'access' })
    expect(fourth.status).toBe(429)
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(fourth.body.detail).toMatch(/Слишком много/)

    const one = { 'x-shop-client-ip': '10.9.1.1' }
    for (let i = 0; i < 10; i++) expect((await ask({ email: email(), kind: 'access' }, one)).status).toBe(202)
    expect((await ask({ email: email(), kind: 'access' }, one)).status).toBe(429)
  })
})

describe('the link', () => {
  it('makes a staff task due in 10 working days and mails the deadline, once', async () => {
    const to = email()
    await ask({ email: to, kind: 'withdraw', text: 'Отзываю согласие' })
    const row = await rowFor(to)
    const opened = await confirm(tokenOf(row.id))
    expect(opened.status).toBe(200)
    const due = addWorkingDays(new Date(), 10)
    expect(opened.body).toEqual({ kind: 'withdraw', status: 'open', due_date: due })
    expect(await rowFor(to)).toMatchObject({ status: 'open', dueDate: due })
    // opened again (a second click, a mail scanner): the same answer, no second mail
    expect((await confirm(tokenOf(row.id))).body).toEqual(opened.body)
    const accepted = await mailJobs('data_request_accepted', to)
    expect(accepted).toHaveLength(1)
    const mail = await renderMail('data_request_accepted', accepted[0]!.payload.data as never, {
      db: api.db,
      config: api.config,
      to,
      now: new Date(),
    })
    const [y, m, d] = due.split('-').map(Number)
    const shown = new Intl.DateTimeFormat('ru-RU', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(Date.UTC(y!, m! - 1, d!)))
    expect(mail?.text).toContain(`не позднее ${shown}`)
    expect(mail?.text).toContain('10 рабочих дней')
  })

  it('an altered, unknown or expired link is refused in Russian and makes no task', async () => {
    const to = email()
    await ask({ email: to, kind: 'access' })
    const row = await rowFor(to)
    const token = tokenOf(row.id)
    const altered = await confirm(`${token.slice(0, -2)}AA`)
    expect(altered.status).toBe(400)
    expect(altered.body.detail).toContain('Ссылка недействительна или устарела')
    expect((await confirm('short')).status).toBe(400)
    await api.db
      .update(dataRequests)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataRequests.id, row.id))
    expect((await confirm(token)).status).toBe(400)
    expect((await rowFor(to)).status).toBe('unconfirmed')
    // the housekeeping sweep forgets it (an open request stays)
    await HOUSEKEEPING_HANDLERS['sweep.data_requests']!(
      {} as never,
      { db: api.db, config: api.config } as never,
    )
    expect(await api.db.select().from(dataRequests).where(eq(dataRequests.id, row.id))).toEqual([])
    expect(
      (await api.db.select().from(dataRequests).where(eq(dataRequests.status, 'open'))).length,
    ).toBeGreaterThan(0)
  })
})

describe('the back-office list', () => {
  it('support and owner see open tasks by deadline and mark them done (audited); shoppers get 404', async () => {
    const to = email()
    await ask({ email: to, kind: 'correction', text: 'Исправьте имя' })
    const row = await rowFor(to)
    await confirm(tokenOf(row.id))

    const support = await makeStaff(api, 'support')
    const shopper = await makeUser(api)
    expect((await api.call('GET', '/api/admin/data-requests/', { token: shopper.token })).status).toBe(404)
    expect((await api.call('GET', '/api/admin/data-requests/')).status).toBe(404)

    type Item = {
      id: string
      email: string
      status: string
      due_date: string
      text: string
      note: string | null
    }
    const open = await api.call<Item[]>('GET', '/api/admin/data-requests/?status=open', {
      token: support.token,
    })
    expect(open.status).toBe(200)
    expect(open.body.find((x) => x.id === row.id)).toMatchObject({
      email: to,
      status: 'open',
      text: 'Исправьте имя',
      due_date: addWorkingDays(new Date(), 10),
    })
    const dues = open.body.map((x) => x.due_date)
    expect(dues).toEqual([...dues].sort())

    const path = `/api/admin/data-requests/${row.id}/done/`
    const done = await api.call<Item>('POST', path, { token: support.token, body: { note: 'Исправили' } })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ status: 'done', note: 'Исправили' })
    const again = await api.call<{ detail: string }>('POST', path, { token: support.token, body: {} })
    expect(again.status).toBe(409)
    expect(again.body.detail).toContain('уже отмечен выполненным')
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'data_request'), eq(auditLog.entityId, row.id)))
    expect(entry).toMatchObject({ action: 'data_request.done', actorEmail: support.email })
    const doneList = await api.call<Item[]>('GET', '/api/admin/data-requests/?status=done', {
      token: support.token,
    })
    expect(doneList.body.map((x) => x.id)).toContain(row.id)
    expect(
      (await api.call('POST', path.replace(row.id, 'nope'), { token: support.token, body: {} })).status,
    ).toBe(400)
  })
})
