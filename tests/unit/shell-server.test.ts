import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createT } from '#app/i18n/translate'
import { rewriteAppScripts } from '#app/lib/csp-stream.server'
import { starterSource } from '#app/lib/scripts-after-paint.server'
import { invalidRoute, pageNotFound } from '#app/lib/http-errors.server'
import { loadLocaleMessages } from '#app/lib/locale-messages.server'
import { publicSentryConfig, SENTRY_REPLAY_OPTIONS, SENTRY_SAMPLE_RATES } from '#app/lib/sentry-options'
import {
  applySecurityHeaders,
  createNonce,
  cspSourcesFromEnv,
  pagePolicy,
  RESOURCE_POLICY,
} from '../../server/security-headers'
import { readLatestVersion } from '../../server/version'

const none = { formAction: [], connect: [] }

describe('security headers', () => {
  it('nonces are fresh and long enough', () => {
    const a = createNonce()
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(createNonce()).not.toBe(a)
  })

  it('the page policy runs only nonced scripts and what they load', () => {
    const policy = pagePolicy('abc', none, false)
    const directives = Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d]))
    expect(directives['script-src']).toBe("script-src 'nonce-abc' 'strict-dynamic'")
    expect(directives['object-src']).toBe("object-src 'none'")
    expect(directives['base-uri']).toBe("base-uri 'self'")
    expect(directives['frame-ancestors']).toBe("frame-ancestors 'none'")
    expect(directives['form-action']).toBe("form-action 'self'")
    expect(directives['img-src']).toBe("img-src 'self' data: blob:")
    expect(directives['style-src']).toBe("style-src 'self'")
    expect(policy).not.toContain('unsafe-inline')
    expect(policy).not.toContain('upgrade-insecure-requests')
    expect(pagePolicy('abc', none, true)).toContain('upgrade-insecure-requests')
  })

  it('allows the providers a form may lead to and the error-reporting origin, from settings', () => {
    const sources = cspSourcesFromEnv(
      {
        SENTRY_DSN: 'https://key@o1.ingest.sentry.io/42',
        CSP_FORM_ACTION: 'https://pay.example/form nonsense',
      },
      ['https://oauth.yandex.ru/authorize', undefined, 'https://oauth.yandex.ru/other', null],
    )
    expect(sources).toEqual({
      formAction: ['https://oauth.yandex.ru', 'https://pay.example'],
      connect: ['https://o1.ingest.sentry.io'],
      widget: null,
    })
    const policy = pagePolicy('n', sources, true)
    expect(policy).toContain("form-action 'self' https://oauth.yandex.ru https://pay.example")
    expect(policy).toContain("connect-src 'self' https://o1.ingest.sentry.io")
  })

  it('a configured chat widget may call, frame, style and draw from its own origin only', () => {
    const sources = cspSourcesFromEnv({ CHAT_WIDGET_URL: 'https://chat.example/widget.js' }, [])
    const policy = pagePolicy('n', sources, true)
    expect(policy).toContain("style-src 'self' 'unsafe-inline' https://chat.example")
    expect(policy).toContain("connect-src 'self' https://chat.example wss://chat.example")
    expect(policy).toContain('frame-src https://chat.example')
    expect(policy).toContain("script-src 'nonce-n' 'strict-dynamic'")
    expect(pagePolicy('n', none, true)).toContain("frame-src 'none'")
  })

  it('pages get the page policy; other responses a policy that allows nothing', () => {
    const page = new Headers({ 'content-type': 'text/html; charset=utf-8' })
    applySecurityHeaders(page, { url: new URL('https://shop.example/'), nonce: 'n1', sources: none })
    expect(page.get('content-security-policy')).toContain("'nonce-n1'")
    expect(page.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains')
    expect(page.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(page.get('x-content-type-options')).toBe('nosniff')
    expect(page.get('x-frame-options')).toBe('DENY')
    expect(page.get('permissions-policy')).toContain('camera=()')

    const json = new Headers({ 'content-type': 'application/json' })
    applySecurityHeaders(json, {
      url: new URL('http://localhost:3000/api/health/'),
      nonce: 'n2',
      sources: none,
    })
    expect(json.get('content-security-policy')).toBe(RESOURCE_POLICY)
    expect(json.get('strict-transport-security')).toBeNull() // not on localhost
    expect(json.get('x-content-type-options')).toBe('nosniff')
  })
})

/** Remix's scroll restoration script as its ScrollRestoration renders it (the function's source). */
const remixScrollSource = /let restoreScroll = \(([\s\S]*?)\)\.toString\(\);/.exec(
  readFileSync(createRequire(import.meta.url).resolve('@remix-run/react/dist/scroll-restoration.js'), 'utf8'),
)![1]!

async function streamThrough(chunks: string[], nonce: string): Promise<string> {
  const out = Readable.from(chunks.map((c) => Buffer.from(c))).pipe(rewriteAppScripts(nonce))
  let text = ''
  for await (const chunk of out) text += chunk.toString()
  return text
}

describe("Remix's scripts as the HTML streams out", () => {
  const html =
    '<head><link rel="modulepreload" href="/a.js"/><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/b.js"/></head>' +
    '<body><script nonce="N">window.__remixContext = {};</script><script nonce="N" type="module" async="">import "/a.js";</script>' +
    '<script nonce="M" type="module" async="">import "/evil.js";</script></body>'

  it('gives every preload the nonce, holds preloads and module script and adds the starter, however the HTML is split', async () => {
    const expected =
      '<head><link nonce="N" rel="x-modulepreload-after-paint" href="/a.js"/><link rel="stylesheet" href="/a.css"/><link nonce="N" rel="x-modulepreload-after-paint" href="/b.js"/></head>' +
      `<body><script nonce="N">${starterSource('N')};window.__remixContext = {};</script><script nonce="N" type="text/x-module-after-paint">import "/a.js";</script>` +
      // only the script that carries this response's nonce is Remix's: another is left as it is
      '<script nonce="M" type="module" async="">import "/evil.js";</script></body>'
    expect(await streamThrough([html], 'N')).toBe(expected)
    for (let cut = 1; cut < html.length; cut++) {
      expect(await streamThrough([html.slice(0, cut), html.slice(cut)], 'N')).toBe(expected)
    }
  })

  it("writes the response's nonce into the starter, whose source may sit anywhere in a script", () => {
    const source = starterSource('abc+/=')
    expect(source).toContain('n="abc+/="')
    // injected markup can shadow document.currentScript: the starter does not ask it
    expect(source).not.toContain('currentScript')
    // split across chunks at any point, and inside a script: it holds no tag start
    expect(source).not.toContain('<')
  })

  it('holds no module script when the starter could not be put in: the app then starts at once', async () => {
    const other =
      '<body><script nonce="N">window.__remixCtx = {};</script><script nonce="N" type="module" async="">import "/a.js";</script></body>'
    expect(await streamThrough([other], 'N')).toBe(other)
  })

  it("compacts the route manifest and minifies Remix's scroll script, however the HTML is split", async () => {
    const manifest = {
      entry: { module: '/e.js', imports: ['/c.js'] },
      routes: { root: { id: 'root', path: '' } },
    }
    const page =
      '<body><script nonce="N">window.__remixContext = {};</script>' +
      `<script nonce="N">(${remixScrollSource})("positions", null)</script>` +
      '<script nonce="N" type="module" async="">;\nimport * as route0 from "/r.js";\n' +
      `window.__remixManifest = ${JSON.stringify(manifest, null, 2)};\nwindow.__remixRouteModules = {"root":route0};\n\nimport("/e.js");</script></body>`
    const whole = await streamThrough([page], 'N')
    expect(whole).toContain(
      `window.__remixManifest = ${JSON.stringify(manifest)};\nwindow.__remixRouteModules`,
    )
    expect(whole).toContain('<script nonce="N">((k,r)=>{var h=window.history;')
    expect(whole).toContain(')("positions", null)</script>')
    expect(whole).not.toContain('STORAGE_KEY')
    expect(whole.length).toBeLessThan(page.length + starterSource('N').length - 300)
    for (let cut = 1; cut < page.length; cut++) {
      expect(await streamThrough([page.slice(0, cut), page.slice(cut)], 'N')).toBe(whole)
    }
    // the minified script does what Remix's does: scrolls to the position kept for this entry
    const run = (source: string) => {
      const calls: unknown[] = []
      const state = { key: 'k1' }
      const window = {
        history: { state, replaceState: () => {} },
        scrollTo: (...a: unknown[]) => calls.push(a),
      }
      const sessionStorage = { getItem: () => JSON.stringify({ k1: 240 }), removeItem: () => {} }
      new Function('window', 'sessionStorage', `(${source})("positions", null)`)(window, sessionStorage)
      return calls
    }
    const minified = /<script nonce="N">(\(\(k,r\)=>.*?)\("positions", null\)<\/script>/.exec(whole)![1]!
    expect(run(minified.slice(1, -1))).toEqual([[0, 240]])
    expect(run(remixScrollSource)).toEqual([[0, 240]])
  })

  it('keeps multi-byte text intact across chunk boundaries', async () => {
    const bytes = Buffer.from('<p>Пополнение</p>')
    const out = Readable.from([bytes.subarray(0, 6), bytes.subarray(6)]).pipe(rewriteAppScripts('N'))
    let text = ''
    for await (const chunk of out) text += chunk.toString()
    expect(text).toBe('<p>Пополнение</p>')
  })
})

describe('route errors (§5, §8)', () => {
  function thrown(fn: () => never): { status: number; message: string } {
    try {
      fn()
    } catch (e) {
      const d = e as { data: { message: string }; init: { status: number } }
      return { status: d.init.status, message: d.data.message }
    }
    throw new Error('did not throw')
  }

  it('a route whose parameters fail the check: 404 Page Not Found: {path}', () => {
    expect(thrown(() => invalidRoute(new Request('https://x/abc?page=2')))).toEqual({
      status: 404,
      message: 'Page Not Found: /abc',
    })
  })

  it('an unknown route: 404 Page not found: {path}', () => {
    expect(thrown(() => pageNotFound(new Request('https://x/no/such')))).toEqual({
      status: 404,
      message: 'Page not found: /no/such',
    })
  })
})

describe('locale load failure (§8)', () => {
  afterEach(() => vi.restoreAllMocks())

  it('is logged to the console only; the page falls back to message keys', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const messages = loadLocaleMessages('ru', () => {
      throw new Error('file missing')
    })
    expect(messages).toEqual({})
    expect(logged).toHaveBeenCalledOnce()
    expect(String(logged.mock.calls[0]?.[0])).toContain('ru')
    expect(createT(messages)('nav.gifts')).toBe('nav.gifts')
  })

  it('loads the real Russian messages', () => {
    expect(createT(loadLocaleMessages('ru'))('nav.gifts')).toBe('Подарки')
  })
})

describe('latest version file', () => {
  it('reads an announced version, ignores a missing or malformed one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-version-'))
    try {
      expect(readLatestVersion(dir)).toBeNull()
      writeFileSync(path.join(dir, 'latest-version'), 'abc123\n')
      expect(readLatestVersion(dir)).toBe('abc123')
      writeFileSync(path.join(dir, 'latest-version'), '<script>')
      expect(readLatestVersion(dir)).toBeNull()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('error reporting settings (§9)', () => {
  it('uses the sample rates and unmasked replays of the spec', () => {
    expect(SENTRY_SAMPLE_RATES).toEqual({
      tracesSampleRate: 0.001,
      sampleRate: 0.002,
      replaysSessionSampleRate: 0.001,
      replaysOnErrorSampleRate: 0.001,
    })
    expect(SENTRY_REPLAY_OPTIONS).toEqual({ maskAllText: false, blockAllMedia: false })
  })

  it('is off without a DSN; the browser DSN is PUBLIC_SENTRY_DSN, else SENTRY_DSN', () => {
    expect(publicSentryConfig({})).toBeNull()
    expect(publicSentryConfig({ SENTRY_DSN: 'https://k@s.example/1' })?.dsn).toBe('https://k@s.example/1')
    expect(
      publicSentryConfig({ SENTRY_DSN: 'https://k@s.example/1', PUBLIC_SENTRY_DSN: 'https://p@s.example/2' })
        ?.dsn,
    ).toBe('https://p@s.example/2')
  })
})
