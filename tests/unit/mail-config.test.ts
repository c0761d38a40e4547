// Mail settings: a bad SMTP_URL or MAIL_FROM stops start-up naming the variable; without SMTP_URL
// mails go to DATA_DIR/mail; errors of the SMTP client lose the addresses they quote.
import { describe, expect, it } from 'vitest'
import { loadApiConfig } from '#api/env'
import { describeSendError } from '#api/services/mail/send-job'
import { messageIdFor } from '#api/services/mail/transport'

const load = (env: Record<string, string>) =>
  loadApiConfig(
    { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), ...env },
    { dataDir: '/srv/shop', port: 3000 },
  )

describe('mail settings', () => {
  it('default to .eml files under DATA_DIR/mail with a From of the public host', () => {
    const { mail } = load({ PUBLIC_URL: 'https://shop.example.ru' })
    expect(mail.smtp).toBeNull()
    expect(mail.dir).toBe('/srv/shop/mail')
    expect(mail.from).toBe('ИгроМаркет <no-reply@shop.example.ru>')
    expect(mail.domain).toBe('shop.example.ru')
    expect(mail.lookupLimits).toEqual({ perEmail: 3, perAddress: 10, windowSeconds: 3600 })
  })

  it('read SMTP_URL: host, port, credentials, TLS, and short timeouts', () => {
    const plain = load({
      SMTP_URL: 'smtp://user:p%40ss@mail.example.com',
      MAIL_FROM: 'Shop <shop@example.com>',
    })
    expect(plain.mail.smtp).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      auth: { user: 'user', pass: 'p@ss' },
      pool: true,
    })
    expect(plain.mail.smtp!.socketTimeout).toBeLessThan(120_000)
    expect(plain.mail.from).toBe('Shop <shop@example.com>')
    expect(plain.mail.domain).toBe('example.com')
    const tls = load({ SMTP_URL: 'smtps://relay.example.com', MAIL_FROM: 'shop@example.com' })
    expect(tls.mail.smtp).toMatchObject({ host: 'relay.example.com', port: 465, secure: true })
    const custom = load({ SMTP_URL: 'smtp://relay.example.com:2525', MAIL_FROM: 'shop@example.com' })
    expect(custom.mail.smtp?.port).toBe(2525)
  })

  it.each([
    [{ SMTP_URL: 'mail.example.com', MAIL_FROM: 'a@example.com' }, /SMTP_URL: must be a URL/],
    [{ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@example.com' }, /SMTP_URL: must start with smtp/],
    [{ SMTP_URL: 'smtp://mail.example.com' }, /MAIL_FROM: required when SMTP_URL is set/],
    [{ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'not an address' }, /MAIL_FROM/],
    [{ MAIL_FROM: 'a@example.com, b@example.com' }, /MAIL_FROM/],
    [{ ORDER_LOOKUP_LIMIT_PER_EMAIL: 'many' }, /ORDER_LOOKUP_LIMIT_PER_EMAIL/],
    [{ ORDER_LOOKUP_LIMIT_PER_ADDRESS: '0' }, /ORDER_LOOKUP_LIMIT_PER_ADDRESS/],
  ])('refuse %j, naming the variable', (env, message) => {
    expect(() => load(env)).toThrow(message)
    expect(() => load(env)).toThrow(/^Invalid environment:/)
  })
})

describe('sending', () => {
  it('makes one Message-ID per outbox key', () => {
    expect(messageIdFor('mail:order_done:1', 'example.com')).toBe(
      messageIdFor('mail:order_done:1', 'example.com'),
    )
    expect(messageIdFor('mail:order_done:1', 'example.com')).not.toBe(
      messageIdFor('mail:order_done:2', 'example.com'),
    )
    expect(messageIdFor('k', 'example.com')).toMatch(/^<[0-9a-f]{32}@example\.com>$/)
  })

  it('describes a refusal without the addresses it quotes', () => {
    const err = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <alice@example.com>: unknown"),
      {
        code: 'EENVELOPE',
        responseCode: 550,
        rejected: ['alice@example.com'],
      },
    )
    const text = describeSendError(err)
    expect(text).toBe(
      "EENVELOPE 550: Can't send mail - all recipients were rejected: 550 5.1.1 <[address]>: unknown",
    )
    expect(describeSendError(new Error('connect ECONNREFUSED 127.0.0.1:25'))).toContain('ECONNREFUSED')
  })
})
