// Mail health on the back-office overview (issue 37): where mail goes, when it last went out, what
// is failing; and a production shop without SMTP_URL is flagged instead of silently writing files.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs, mailLog } from '#api/db/schema'
import { loadApiConfig } from '#api/env'
import { grantRole } from '#api/services/admin/roles'
import { mailHealth } from '#api/services/mail/health'
import { MAIL_JOB } from '#api/services/mail/outbox'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'

interface MailHealth {
  transport: string
  not_configured: boolean
  last_sent_at: string | null
  retrying: number
  dead: number
}

let api: TestApi
let read: () => Promise<MailHealth>
beforeAll(async () => {
  api = await createTestApi({ seed: false })
  const owner = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'test')
  read = async () => {
    const r = await api.call<{ mail: MailHealth }>('GET', '/api/admin/overview/', { token: owner.token })
    expect(r.status).toBe(200)
    return r.body.mail
  }
})
afterAll(() => api?.close())

/** The mail settings of a production start with these variables. */
const productionMail = (env: Record<string, string>) =>
  loadApiConfig(
    { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://shop.example', ...env },
    { dataDir: mkdtempSync(path.join(tmpdir(), 'mail-health-')), port: 3000 },
  ).mail

describe('mail health on the overview', () => {
  it('the demo writes files without a warning; failing and given-up mails are counted', async () => {
    expect(await read()).toEqual({
      transport: 'file',
      not_configured: false,
      last_sent_at: null,
      retrying: 0,
      dead: 0,
    })
    const sentAt = new Date('2026-11-20T10:00:00Z')
    await api.db
      .insert(mailLog)
      .values({ key: 'mail:x', template: 'order_done', messageId: 'm1', transport: 'file', sentAt })
    const mail = (key: string, v: Partial<typeof jobs.$inferInsert>) =>
      api.db.insert(jobs).values({ kind: MAIL_JOB, dedupeKey: key, payload: {}, ...v })
    await mail('a', { status: 'pending', attempts: 0 }) // queued, never tried: not failing
    await mail('b', { status: 'running', attempts: 1 }) // its first try now: not failing
    await mail('c', { status: 'pending', attempts: 3, lastError: 'ECONNREFUSED' }) // waiting to retry
    await mail('d', { status: 'running', attempts: 2 }) // a retry under way
    await mail('e', { status: 'dead', attempts: 20, finishedAt: new Date() })
    await mail('f', { status: 'dead', attempts: 20, finishedAt: new Date(Date.now() - 8 * 86_400_000) })
    await api.db
      .insert(jobs)
      .values({ kind: 'other.kind', status: 'dead', attempts: 9, finishedAt: new Date() })
    expect(await read()).toEqual({
      transport: 'file',
      not_configured: false,
      last_sent_at: sentAt.toISOString(),
      retrying: 2,
      dead: 1,
    })
  })

  it('production without SMTP_URL says mail is not configured; with it, it does not', async () => {
    expect(await mailHealth(api.db, productionMail({}), true)).toMatchObject({
      transport: 'file',
      not_configured: true,
    })
    const smtp = productionMail({
      SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
      MAIL_FROM: 'Shop <shop@shop.example>',
    })
    expect(await mailHealth(api.db, smtp, true)).toMatchObject({ transport: 'smtp', not_configured: false })
  })
})
