// Logs leak no personal data (issue 19): emails, tokens, codes and SQL parameters are scrubbed by
// field name and by shape; an error is one JSON value with its stack.
import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { isoTime, scrubText, scrubUrlPath, serializeError } from '#api/lib/log'
import { LOGGED_PATH_MAX, loggedPath } from '../../server/access-log'

describe('log scrubbing', () => {
  it('removes emails, JWTs and long tokens from text; keeps UUIDs (order ids)', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ'
    const out = scrubText(
      `user Ann.Lee+tag@mail.example.ru signed in with ${jwt} for 3f1c2a9e-8d1b-4c39-9a57-2f0c6b1d4e11`,
    )
    expect(out).not.toMatch(/Ann\.Lee|mail\.example|eyJ/)
    expect(out).toContain('3f1c2a9e-8d1b-4c39-9a57-2f0c6b1d4e11')
    expect(scrubText(`refresh ${'a1B2'.repeat(16)}`)).toBe('refresh [token]')
  })

  it('drops the parameters of a failed query and the values of a key conflict', () => {
    const drizzle =
      'Failed query: insert into "users" ("email", "password") values ($1, $2)\nparams: buyer@example.com,$argon2id$v=19$x'
    const out = scrubText(drizzle)
    expect(out).toContain('insert into "users"')
    expect(out).not.toMatch(/buyer|argon2/)
    expect(
      scrubText(
        'duplicate key value violates unique constraint\nKey (email)=(buyer@example.com) already exists.',
      ),
    ).not.toMatch(/buyer/)
  })

  it('cuts the access line path at its limit, after scrubbing', () => {
    expect(loggedPath('/products/3?page=2')).toBe('/products/3?page=2')
    const long = `/x/${'abc/'.repeat(3000)}?code=secret`
    const cut = loggedPath(long)
    expect(cut).toHaveLength(LOGGED_PATH_MAX + 1)
    expect(cut.endsWith('…')).toBe(true)
    expect(cut.startsWith('/x/abc/abc/')).toBe(true)
    expect(loggedPath(`/a?code=${'s'.repeat(2000)}`)).toBe('/a?code=[redacted]')
  })

  it('keeps paths and harmless query parameters, drops secrets and emails from the query', () => {
    expect(scrubUrlPath('/products/3?page=2')).toBe('/products/3?page=2')
    const out = scrubUrlPath('/auth/yandex/callback?code=abc123&state=xyz&page=1&email=a%40b.example')
    expect(out).toBe('/auth/yandex/callback?code=[redacted]&state=[redacted]&page=1&email=[redacted]')
    expect(scrubUrlPath(`/orders/lookup/${'t0K3n'.repeat(10)}/`)).toBe('/orders/lookup/[token]/')
    expect(scrubUrlPath('/search?q=me%40mail.example.com')).not.toMatch(/mail\.example/)
  })

  it('an error is one JSON line: type, message, stack, SQLSTATE, cause; no parameters', () => {
    const cause = Object.assign(new Error('duplicate key'), {
      code: '23505',
      detail: 'Key (email)=(x@y.example)',
    })
    const err = Object.assign(new Error('Failed query: select 1\nparams: x@y.example', { cause }), {
      params: ['x@y.example'],
      query: 'select 1',
    })
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const logger = pino({ serializers: { err: serializeError } }, sink)
    logger.error({ err }, 'boom')
    expect(lines).toHaveLength(1)
    const entry = JSON.parse(lines[0]!) as { err: ReturnType<typeof serializeError> }
    expect(entry.err.stack).toContain('log.test.ts')
    expect(entry.err.cause).toMatchObject({ message: 'duplicate key', errorCode: '23505' })
    expect(lines[0]).not.toContain('x@y.example')
  })
})

describe('the time of a log line', () => {
  const timeOf = (field: string) => {
    const m = /^,"time":"(.+)"$/.exec(field)
    expect(m, field).not.toBeNull()
    return new Date(m![1]!).getTime()
  }

  it('is the current millisecond in ISO form, formatted again once the clock moves', async () => {
    const before = Date.now()
    const first = timeOf(isoTime())
    expect(first).toBeGreaterThanOrEqual(before)
    expect(first).toBeLessThanOrEqual(Date.now())
    await new Promise((r) => setTimeout(r, 5))
    // a timer may fire a fraction of a millisecond early by the wall clock: compare with the clock
    const moved = Date.now()
    const later = timeOf(isoTime())
    expect(later).toBeGreaterThan(first)
    expect(later).toBeGreaterThanOrEqual(moved)
    expect(later).toBeLessThanOrEqual(Date.now())
  })
})
