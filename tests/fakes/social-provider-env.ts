// The SOCIAL_* variables that point the shop's social sign-in at the local fake provider
// (tests/fakes/social-provider.ts) running at `origin`. Shared by API tests and playwright.config.ts.

export const FAKE_CLIENT_ID = 'fake-client'
export const FAKE_CLIENT_SECRET = 'fake-secret'
export const FAKE_TELEGRAM_BOT_TOKEN = '123456:fake-telegram-bot-token'
/** The fixed port of the fake in e2e runs (a second Playwright webServer). */
export const FAKE_SOCIAL_E2E_PORT = 3299

export const FAKE_OAUTH_PROVIDERS = ['vk', 'vk_id', 'yandex', 'google', 'facebook'] as const

export function fakeSocialEnv(origin: string, botToken = FAKE_TELEGRAM_BOT_TOKEN): Record<string, string> {
  const env: Record<string, string> = {
    SOCIAL_STEAM_OPENID_URL: `${origin}/steam/openid`,
    SOCIAL_TELEGRAM_BOT_TOKEN: botToken,
    SOCIAL_TELEGRAM_AUTH_URL: `${origin}/telegram/auth`,
  }
  for (const p of FAKE_OAUTH_PROVIDERS) {
    const k = p.toUpperCase()
    env[`SOCIAL_${k}_CLIENT_ID`] = FAKE_CLIENT_ID
    env[`SOCIAL_${k}_CLIENT_SECRET`] = FAKE_CLIENT_SECRET
    env[`SOCIAL_${k}_AUTHORIZE_URL`] = `${origin}/${p}/authorize`
    env[`SOCIAL_${k}_TOKEN_URL`] = `${origin}/${p}/token`
    env[`SOCIAL_${k}_USERINFO_URL`] = `${origin}/${p}/userinfo`
  }
  return env
}
