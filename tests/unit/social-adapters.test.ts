import { describe, expect, it } from 'vitest'
import { loadApiConfig, type SteamProviderConfig, type TelegramProviderConfig } from '#api/env'
import { checkRedirectUri, pkceChallenge, pkceVerifier } from '#api/services/social/state'
import { steamAuthorizeUrl } from '#api/services/social/steam'
import {
  parseTelegramPayload,
  signTelegramPayload,
  telegramAuthorizeUrl,
  telegramIdentity,
} from '#api/services/social/telegram'

const config = loadApiConfig(
  {
    NODE_ENV: 'test',
    JWT_SECRET: 'x'.repeat(40),
    PUBLIC_URL: 'https://shop.example',
    SOCIAL_REDIRECT_ORIGINS: 'https://m.shop.example',
  },
  { dataDir: '/tmp/unused', port: 3000 },
)

const tg: TelegramProviderConfig = {
  kind: 'telegram',
  botToken: '42:secret-token',
  botId: '42',
  authUrl: 'https://oauth.telegram.org/auth',
  maxAgeSeconds: 3600,
}

function signed(fields: Record<string, string>, token = tg.botToken) {
  return { ...fields, hash: signTelegramPayload(token, fields) }
}

describe('telegram login check', () => {
  const now = Date.UTC(2026, 0, 1) / 1000
  const fields = { id: '1001', first_name: 'Иван', username: 'ivan', auth_date: String(now) }

  it('accepts a payload signed with the bot token, as JSON, query string or base64 JSON', () => {
    const p = signed(fields)
    for (const code of [
      JSON.stringify(p),
      new URLSearchParams(p).toString(),
      Buffer.from(JSON.stringify(p)).toString('base64url'),
    ]) {
      expect(telegramIdentity(tg, code, now * 1000)).toEqual({ id: '1001', email: null, nickname: 'Иван' })
    }
  })

  it('refuses another bot’s signature, a changed field, and a stale auth_date', () => {
    expect(() => telegramIdentity(tg, JSON.stringify(signed(fields, '43:other')), now * 1000)).toThrow(
      /Подпись/,
    )
    const changed = { ...signed(fields), id: '1002' }
    expect(() => telegramIdentity(tg, JSON.stringify(changed), now * 1000)).toThrow(/Подпись/)
    expect(() => telegramIdentity(tg, JSON.stringify(signed(fields)), (now + 7200) * 1000)).toThrow(
      /устарели/,
    )
  })

  it('keeps only the login fields of a payload', () => {
    expect(parseTelegramPayload('id=1&auth_date=2&hash=abc&state=zzz&evil=1')).toEqual({
      id: '1',
      auth_date: '2',
      hash: 'abc',
    })
    expect(parseTelegramPayload('not a payload')).toEqual({})
  })

  it('sends the shopper to the login page with the bot id and a return address carrying the state', () => {
    const u = new URL(telegramAuthorizeUrl(tg, 'https://shop.example/auth/telegram/redirect/', 'S1'))
    expect(u.searchParams.get('bot_id')).toBe('42')
    expect(u.searchParams.get('origin')).toBe('https://shop.example')
    expect(u.searchParams.get('return_to')).toBe('https://shop.example/auth/telegram/redirect/?state=S1')
  })
})

describe('steam and shared checks', () => {
  it('builds an OpenID 2.0 checkid_setup URL with the state inside the signed return_to', () => {
    const steam: SteamProviderConfig = { kind: 'steam', openidUrl: 'https://steamcommunity.com/openid/login' }
    const u = new URL(steamAuthorizeUrl(steam, 'https://shop.example/auth/steam/redirect/', 'S2'))
    expect(u.searchParams.get('openid.mode')).toBe('checkid_setup')
    expect(u.searchParams.get('openid.realm')).toBe('https://shop.example')
    expect(u.searchParams.get('openid.return_to')).toBe('https://shop.example/auth/steam/redirect/?state=S2')
    expect(u.searchParams.get('openid.claimed_id')).toBe('http://specs.openid.net/auth/2.0/identifier_select')
  })

  it('accepts only our own return addresses of the provider’s path', () => {
    expect(checkRedirectUri(config, 'vk_id', 'https://shop.example/auth/vk_id/redirect')).toBe(
      'https://shop.example/auth/vk_id/redirect/',
    )
    expect(checkRedirectUri(config, 'vk_id', 'https://m.shop.example/auth/vk_id/redirect/?x=1')).toBe(
      'https://m.shop.example/auth/vk_id/redirect/',
    )
    expect(() => checkRedirectUri(config, 'vk_id', 'https://evil.example/auth/vk_id/redirect/')).toThrow()
    expect(() => checkRedirectUri(config, 'vk_id', 'https://shop.example/auth/yandex/redirect/')).toThrow()
    expect(() => checkRedirectUri(config, 'vk_id', 'javascript:alert(1)')).toThrow()
  })

  it('derives a PKCE verifier per state that only this server can produce', () => {
    const v = pkceVerifier(config, 'state-1')
    expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(pkceVerifier(config, 'state-2')).not.toBe(v)
    expect(pkceChallenge(v)).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})
