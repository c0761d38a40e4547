// A local stand-in for the social sign-in providers, for API tests and e2e. One node:http server:
//   /{vk|vk_id|yandex|google|facebook}/authorize  OAuth 2.0 consent, approved at once: redirects
//                                                  back with code and state (VK ID adds device_id)
//   /{…}/token                                     code → access token (checks redirect_uri, PKCE)
//   /{…}/userinfo                                  the provider's own user-info shape
//   /steam/openid                                  OpenID 2.0 checkid_setup and check_authentication
//   /telegram/auth                                 login page: back to return_to with a signed payload
//                                                  in #tgAuthResult (as Telegram), or the query (fake_tg_query=1)
// Who signs in: `fake_user` in the authorize query, else a `fake_user` cookie, else someone new.
// Run alone: `npx tsx tests/fakes/social-provider.ts` (FAKE_SOCIAL_PORT, FAKE_TELEGRAM_BOT_TOKEN).
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  FAKE_OAUTH_PROVIDERS,
  FAKE_SOCIAL_E2E_PORT,
  FAKE_TELEGRAM_BOT_TOKEN,
  fakeSocialEnv,
} from './social-provider-env'

export { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, FAKE_TELEGRAM_BOT_TOKEN }

const OAUTH = FAKE_OAUTH_PROVIDERS
type OAuthName = (typeof OAUTH)[number]

export interface FakeSocialProvider {
  origin: string
  /** SOCIAL_* variables that point every provider of the shop at this fake. */
  env: Record<string, string>
  /** How many check_authentication calls were answered valid (tests). */
  stats: { tokenCalls: number; steamChecks: number }
  close(): Promise<void>
}

interface Person {
  login: string
  numericId: string
  email: string
  firstName: string
}

function person(login: string): Person {
  const digits = BigInt(`0x${createHash('sha256').update(login).digest('hex').slice(0, 12)}`).toString()
  const safe = login.toLowerCase().replace(/[^a-z0-9._-]/g, '') || 'user'
  return { login, numericId: digits.slice(0, 10), email: `${safe}@example.test`, firstName: `Тест ${login}` }
}

function who(req: IncomingMessage, url: URL): Person {
  const fromQuery = url.searchParams.get('fake_user')
  const cookie = /(?:^|;\s*)fake_user=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]
  return person(fromQuery || (cookie ? decodeURIComponent(cookie) : `u${randomBytes(5).toString('hex')}`))
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json') {
  res.writeHead(status, { 'content-type': type })
  res.end(type === 'application/json' ? JSON.stringify(body) : String(body))
}

function redirect(res: ServerResponse, to: string) {
  res.writeHead(302, { location: to })
  res.end()
}

export function signTelegram(botToken: string, fields: Record<string, string>): string {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')
  return createHmac('sha256', createHash('sha256').update(botToken).digest()).update(check).digest('hex')
}

export async function startFakeSocialProvider(
  opts: { port?: number; host?: string; telegramBotToken?: string } = {},
): Promise<FakeSocialProvider> {
  const host = opts.host ?? '127.0.0.1'
  const botToken = opts.telegramBotToken ?? FAKE_TELEGRAM_BOT_TOKEN
  const steamKey = randomBytes(32)
  const codes = new Map<
    string,
    { provider: OAuthName; who: Person; redirectUri: string; clientId: string; challenge: string | null }
  >()
  const tokens = new Map<string, { provider: OAuthName; who: Person }>()
  const steamNonces = new Set<string>()
  const stats = { tokenCalls: 0, steamChecks: 0 }
  let origin = ''

  const steamSignature = (p: URLSearchParams) => {
    const signed = (p.get('openid.signed') ?? '').split(',')
    const text = signed.map((f) => `${f}:${p.get(`openid.${f}`) ?? ''}\n`).join('')
    return createHmac('sha256', steamKey).update(text).digest('base64')
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin)
      const [, provider, action] = url.pathname.split('/')
      if (url.pathname === '/health') return send(res, 200, { ok: true })

      if (OAUTH.includes(provider as OAuthName)) {
        const p = provider as OAuthName
        if (action === 'authorize') {
          const redirectUri = url.searchParams.get('redirect_uri')
          const clientId = url.searchParams.get('client_id')
          if (!redirectUri || !clientId)
            return send(res, 400, 'missing redirect_uri or client_id', 'text/plain')
          const back = new URL(redirectUri)
          const state = url.searchParams.get('state')
          if (state) back.searchParams.set('state', state)
          if (url.searchParams.get('fake_deny')) {
            back.searchParams.set('error', 'access_denied')
            return redirect(res, back.toString())
          }
          const code = randomBytes(16).toString('hex')
          codes.set(code, {
            provider: p,
            who: who(req, url),
            redirectUri,
            clientId,
            challenge: url.searchParams.get('code_challenge'),
          })
          back.searchParams.set('code', code)
          if (p === 'vk_id') {
            back.searchParams.set('device_id', `dev-${randomBytes(4).toString('hex')}`)
            back.searchParams.set('type', 'code_v2')
          }
          return redirect(res, back.toString())
        }
        if (action === 'token' && req.method === 'POST') {
          stats.tokenCalls++
          const form = await readBody(req)
          const grant = codes.get(form.get('code') ?? '')
          if (!grant || grant.provider !== p) return send(res, 400, { error: 'invalid_grant' })
          codes.delete(form.get('code') ?? '')
          if (form.get('client_id') !== grant.clientId || form.get('redirect_uri') !== grant.redirectUri)
            return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' })
          if (p !== 'vk_id' && form.get('client_secret') !== FAKE_CLIENT_SECRET)
            return send(res, 401, { error: 'invalid_client' })
          if (grant.challenge) {
            const verifier = form.get('code_verifier') ?? ''
            if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
              return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE' })
          }
          if (p === 'vk_id' && !form.get('device_id')) return send(res, 400, { error: 'invalid_request' })
          const access = randomBytes(16).toString('hex')
          tokens.set(access, { provider: p, who: grant.who })
          const extra =
            p === 'vk'
              ? { user_id: Number(grant.who.numericId), email: grant.who.email }
              : p === 'vk_id'
                ? { user_id: Number(grant.who.numericId) }
                : {}
          return send(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, ...extra })
        }
        if (action === 'userinfo') {
          const form = req.method === 'POST' ? await readBody(req) : new URLSearchParams()
          const auth = req.headers.authorization?.replace(/^(Bearer|OAuth) /, '')
          const access = auth ?? form.get('access_token') ?? url.searchParams.get('access_token') ?? ''
          const t = tokens.get(access)
          if (!t || t.provider !== p) return send(res, 401, { error: 'invalid_token' })
          const w = t.who
          switch (p) {
            case 'vk':
              return send(res, 200, {
                response: [{ id: Number(w.numericId), first_name: w.firstName, last_name: '' }],
              })
            case 'vk_id':
              return send(res, 200, {
                user: { user_id: w.numericId, first_name: w.firstName, last_name: '', email: w.email },
              })
            case 'yandex':
              return send(res, 200, {
                id: w.numericId,
                login: w.login,
                default_email: w.email,
                display_name: w.firstName,
              })
            case 'google':
              return send(res, 200, {
                sub: w.numericId,
                email: w.email,
                email_verified: true,
                name: w.firstName,
              })
            case 'facebook':
              return send(res, 200, { id: w.numericId, name: w.firstName, email: w.email })
          }
        }
      }

      if (provider === 'steam' && action === 'openid') {
        const op = `${origin}/steam/openid`
        if (req.method === 'GET' && url.searchParams.get('openid.mode') === 'checkid_setup') {
          const returnTo = url.searchParams.get('openid.return_to')
          if (!returnTo) return send(res, 400, 'missing return_to', 'text/plain')
          const w = who(req, url)
          const claimed = `${origin}/openid/id/7656119${w.numericId}`
          const back = new URL(returnTo)
          const p = new URLSearchParams({
            'openid.ns': 'http://specs.openid.net/auth/2.0',
            'openid.mode': 'id_res',
            'openid.op_endpoint': op,
            'openid.claimed_id': claimed,
            'openid.identity': claimed,
            'openid.return_to': returnTo,
            'openid.response_nonce': `${new Date().toISOString().slice(0, 19)}Z${randomBytes(6).toString('hex')}`,
            'openid.assoc_handle': '1234567890',
            'openid.signed': 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
          })
          p.set('openid.sig', steamSignature(p))
          for (const [k, v] of p) back.searchParams.set(k, v)
          return redirect(res, back.toString())
        }
        if (req.method === 'POST') {
          const form = await readBody(req)
          const nonce = form.get('openid.response_nonce') ?? ''
          const valid =
            form.get('openid.mode') === 'check_authentication' &&
            form.get('openid.sig') === steamSignature(form) &&
            !steamNonces.has(nonce)
          if (valid) {
            steamNonces.add(nonce)
            stats.steamChecks++
          }
          return send(res, 200, `ns:http://specs.openid.net/auth/2.0\nis_valid:${valid}\n`, 'text/plain')
        }
      }

      if (provider === 'telegram' && action === 'auth') {
        const returnTo = url.searchParams.get('return_to')
        if (!returnTo || url.searchParams.get('bot_id') !== botToken.split(':')[0])
          return send(res, 400, 'bad bot_id or return_to', 'text/plain')
        const w = who(req, url)
        const authDate = url.searchParams.get('fake_auth_date') ?? String(Math.floor(Date.now() / 1000))
        const fields: Record<string, string> = {
          id: w.numericId,
          first_name: w.firstName,
          username: w.login,
          auth_date: authDate,
        }
        const back = new URL(returnTo)
        const hash = signTelegram(botToken, fields)
        // as Telegram does: the signed payload in the fragment (#tgAuthResult=base64 JSON), which
        // only the browser sees; `fake_tg_query=1` puts the fields in the query instead
        if (
          url.searchParams.get('fake_tg_query') ||
          /(?:^|;\s*)fake_tg_query=1/.test(req.headers.cookie ?? '')
        ) {
          for (const [k, v] of Object.entries(fields)) back.searchParams.set(k, v)
          back.searchParams.set('hash', hash)
        } else {
          const json = JSON.stringify({ ...fields, id: Number(fields.id), auth_date: Number(authDate), hash })
          back.hash = `tgAuthResult=${Buffer.from(json, 'utf8').toString('base64url')}`
        }
        return redirect(res, back.toString())
      }
      send(res, 404, { error: 'not_found' })
    } catch (e) {
      send(res, 500, { error: String(e) })
    }
  })

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve))
  origin = `http://${host}:${(server.address() as AddressInfo).port}`

  const env = fakeSocialEnv(origin, botToken)
  return {
    origin,
    env,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// Started as a program (Playwright's second webServer): listen on a fixed port until killed.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const fake = await startFakeSocialProvider({
    port: Number(process.env.FAKE_SOCIAL_PORT ?? FAKE_SOCIAL_E2E_PORT),
    telegramBotToken: process.env.FAKE_TELEGRAM_BOT_TOKEN,
  })
  console.log(`Fake social provider at ${fake.origin}`)
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => void fake.close().then(() => process.exit(0)))
}
