// The personal fill (decision 098): a signed-in buyer's page made from a copy rendered without them.
//
// A page its route calls shared (app/lib/shared-page.server.ts) is rendered once per page and user
// *shape* as a template: the render gets no token of the buyer and reaches the API through a guard
// that answers the personal reads (the profile, the last order's data) with sentinel values built
// from the shape of the buyer's own answers, sends the catalogue's public reads without a token,
// and gives up on any other call. Every sentinel is cut out of the text; on each request the
// buyer's own reads (made for this request, with their token) fill the holes. So a kept copy
// holds nothing of anybody, and what fills it comes from this request alone. The cache is keyed
// by page and shape (which fields are empty, how many decimals, which social accounts), never by
// user.
//
// The page is rendered twice with two different sets of sentinels (other letters, case and
// length); the two must cut into the same text with the same holes in the same order, or the page
// depends on the personal values in a way a fill cannot reproduce (an initial, a truncation, a
// count), and it is rendered whole for everybody for one cache time. A value is filled only when
// it reads the same in HTML text, an attribute and the page's inline data (letters, digits and
// a few marks; an integer; a decimal): a name with `<`, `&`, quotes or anything else gets a whole
// render, escaped by React as usual.
import { randomBytes, randomUUID } from 'node:crypto'
import { parse as parseCookies } from 'cookie'
import { LOCALE_COOKIE } from '#app/i18n/i18n.server'
import { REMEMBER_COOKIE, SECURE_REMEMBER_COOKIE } from '#app/lib/remembered-buyer.server'
import { SHARED_PAGE_HEADER } from '#app/lib/shared-page.server'
import { ACCESS_COOKIE, REFRESH_COOKIE } from '#app/lib/session.server'
import { vary } from './compression'
import { escapeRegExp, PAGE_CACHE_STATUS_HEADER, pageKeyOf, readText } from './page-cache'

/** The API reads that are one buyer's: answered with sentinels in a template. */
const PERSONAL_READS: readonly RegExp[] = [
  /^\/api\/auth\/profile\/$/,
  /^\/api\/orders\/(standoff|steam)\/last_order_data\/$/,
  /^\/api\/orders\/supply_channel\/last_order_data\/\d+\/$/,
]
/** Reads the same for everyone (no answer of theirs looks at the token): sent without one. */
const PUBLIC_READS: readonly RegExp[] = [
  /^\/api\/(games|products|gifts|faq|articles)\//,
  /^\/api\/(contacts|shop)\/$/,
  /^\/api\/orders\/(standoff|steam)\/settings\/$/,
]
export const PROFILE = '/api/auth/profile/'
/** Query parameters that open an account popup (its data is personal and not modelled). */
const POPUP_PARAMS = ['auth', 'last-orders']
/**
 * Keys whose values are part of the shape, not holes: a closed list of names (social providers), and
 * the last order's server of a supply-channel game, which picks the `selected` option of a select.
 */
const SHAPE_KEYS = new Set(['social_accounts', 'moogold_server'])
/** The template's access cookie: only ever seen by the guard, which never sends it on. */
const TEMPLATE_TOKEN = 'personal-fill-template'
const SAFE_TEXT = /^[\p{L}\p{M}\p{N} @._+\-/:,]{0,254}$/u

export interface TemplateRender {
  nonce: string
  formKey: () => string
  spoil: () => void
  /** The guarded way to the API for this render. */
  apiFetch: (req: Request) => Promise<Response>
}

export interface FillHandlers {
  /** One personal read as the buyer (their bearer, this request's in-process call). */
  readAsBuyer: (path: string, access: string) => Promise<Pick<Response, 'status' | 'json'>>
  /** A public read without any token. */
  readPublic: (req: Request) => Promise<Response>
  /** Renders the storefront for a template (the request carries no token of the buyer). */
  renderTemplate: (req: Request, r: TemplateRender) => Promise<Response>
  /** The ordinary way: page cache for guests, a whole render for anyone else. */
  full: () => Promise<Response>
}

interface PersonalFillOptions {
  /** How long a template may be used; 0 turns the fill off. */
  ttlMs: number
  maxEntries?: number
  maxBodyBytes?: number
  now?: () => number
}

interface PersonalFill {
  serve(req: Request, nonce: string, handlers: FillHandlers): Promise<Response>
  readonly size: number
}

type Hole = { nonce: true } | { key: number } | { value: number }
type Part = Buffer | Hole

interface Template {
  expires: number
  status: number
  headers: Array<[string, string]>
  parts: Part[]
}

interface Group {
  /** The personal reads the page makes (learned from its templates). */
  reads: string[]
  /** Rendered whole until then (its templates did not agree, or kept failing). */
  wholeUntil: number
}

/** A value of a personal answer, as a template holds it. */
type Leaf = { kind: 'int' } | { kind: 'dec'; decimals: number } | { kind: 'email' } | { kind: 'text' }

/** Raised while building sentinels or values when an answer cannot be filled. */
class NotFillable extends Error {}

export function createPersonalFill(options: PersonalFillOptions): PersonalFill {
  const { ttlMs, maxEntries = 300, maxBodyBytes = 512 * 1024, now = Date.now } = options
  const templates = new Map<string, Template>()
  const building = new Map<string, Promise<Template | null>>()
  const groups = new Map<string, Group>()
  /** When a page and shape was last asked for without a template. */
  const seen = new Map<string, number>()
  /** Page and shape whose two templates did not agree: rendered whole until then. */
  const unfit = new Map<string, number>()

  function groupOf(key: string): Group {
    let g = groups.get(key)
    if (!g) {
      g = { reads: [PROFILE], wholeUntil: 0 }
      groups.set(key, g)
      while (groups.size > maxEntries * 4) groups.delete(groups.keys().next().value as string)
    }
    return g
  }

  async function serve(req: Request, nonce: string, h: FillHandlers): Promise<Response> {
    const access = ttlMs > 0 ? eligibleAccess(req) : null
    if (!access) return h.full()
    const pageKey = pageKeyOf(req)
    const group = groupOf(pageKey)
    if (group.wholeUntil > now()) return h.full()

    // the buyer's own personal reads, for this request only
    const reads = [...group.reads]
    let answers: unknown[]
    try {
      answers = await Promise.all(
        reads.map(async (path) => {
          const res = await h.readAsBuyer(path, access)
          if (res.status !== 200) throw new NotFillable(`${path}: ${res.status}`)
          return res.json()
        }),
      )
    } catch {
      // an expired token (the whole render refreshes it), a deleted account, a failing read
      return h.full()
    }
    let shape: string
    let values: string[]
    try {
      ;({ shape, values } = fillValues(answers))
    } catch {
      return h.full()
    }
    const key = `${pageKey}\u0000${reads.join(' ')}\u0000${shape}`
    let template = templates.get(key)
    if (!template || template.expires <= now()) {
      if ((unfit.get(key) ?? 0) > now()) return h.full()
      // a template costs two renders: made for a page and shape asked for twice within a cache
      // time, so that a page nobody else opens costs one render as before
      const last = seen.get(key)
      remember(seen, key, now())
      if (last === undefined || now() - last > ttlMs) return h.full()
      let pending = building.get(key)
      if (!pending) {
        pending = build(req, reads, answers, group, h)
          .catch(() => null)
          .then((made) => {
            building.delete(key)
            if (made === 'unfit') remember(unfit, key, now() + ttlMs)
            else if (made) keep(key, made)
            return made === 'unfit' ? null : made
          })
        building.set(key, pending)
      }
      const made = await pending
      if (!made) return h.full()
      template = made
    }
    return fill(template, nonce, values)
  }

  /** Sets a time in one of the bounded bookkeeping maps (the oldest goes first). */
  function remember(map: Map<string, number>, key: string, at: number) {
    map.delete(key)
    map.set(key, at)
    while (map.size > maxEntries * 4) map.delete(map.keys().next().value as string)
  }

  function keep(key: string, template: Template) {
    templates.delete(key)
    templates.set(key, template)
    while (templates.size > maxEntries) templates.delete(templates.keys().next().value as string)
  }

  /** Two renders with different sentinels; their common cut, or null (the page is rendered whole). */
  async function build(
    req: Request,
    reads: string[],
    answers: unknown[],
    group: Group,
    h: FillHandlers,
  ): Promise<Template | 'unfit' | null> {
    const started = now()
    const renders = await Promise.all(
      ([0, 1] as const).map((round) => renderOnce(req, reads, answers, round, h)),
    )
    const [a, b] = renders
    const missing = renders.flatMap((r) => (r && 'missing' in r ? r.missing : []))
    if (missing.length > 0) {
      // a personal read not asked for yet: asked for from the next request on
      for (const p of missing) if (!group.reads.includes(p)) group.reads.push(p)
      return null
    }
    if (!a || !b || 'missing' in a || 'missing' in b) {
      // not a page for a fill (not shared, or another call): rendered whole for one cache time
      group.wholeUntil = now() + ttlMs
      return null
    }
    // a personal value used otherwise than shown (an initial, a length): this shape rendered whole
    if (!samePlan(a.parts, b.parts) || a.status !== b.status) return 'unfit'
    return { expires: started + ttlMs, status: a.status, headers: a.headers, parts: a.parts }
  }

  async function renderOnce(
    req: Request,
    reads: string[],
    answers: unknown[],
    round: 0 | 1,
    h: FillHandlers,
  ): Promise<
    { parts: Part[]; status: number; headers: Array<[string, string]> } | { missing: string[] } | null
  > {
    const tag = round === 0 ? `kb${hex(4)}` : `Wq${hex(7)}`
    let sentinels: { answers: Map<string, unknown>; values: string[] }
    try {
      sentinels = sentinelAnswers(reads, answers, round, tag)
    } catch {
      return null
    }
    const missing: string[] = []
    let refused = false
    let spoiled = false
    const nonce = randomUUID()
    const formKeys: string[] = []
    const apiFetch = async (apiReq: Request): Promise<Response> => {
      const url = new URL(apiReq.url)
      const given = sentinels.answers.get(url.pathname)
      const refuse = () => {
        refused = true
        return Response.json({ detail: 'personal fill', code: 'not_fillable' }, { status: 409 })
      }
      if (apiReq.method !== 'GET') return refuse()
      if (given !== undefined && !url.search) return Response.json(given)
      if (given === undefined && PERSONAL_READS.some((re) => re.test(url.pathname))) {
        missing.push(url.pathname)
        return refuse()
      }
      if (!PUBLIC_READS.some((re) => re.test(url.pathname))) return refuse()
      const headers = new Headers(apiReq.headers)
      headers.delete('authorization')
      headers.delete('cookie')
      return h.readPublic(new Request(apiReq.url, { method: 'GET', headers }))
    }
    const res = await h.renderTemplate(templateRequest(req), {
      nonce,
      formKey: () => {
        const k = randomUUID()
        formKeys.push(k)
        return k
      },
      spoil: () => {
        spoiled = true
      },
      apiFetch,
    })
    const text = res.body ? await readText(res.body, maxBodyBytes) : null
    if (missing.length > 0) return { missing }
    if (refused || spoiled || text === null || !shareable(res)) return null
    const headers = new Headers(res.headers)
    headers.delete(SHARED_PAGE_HEADER)
    headers.delete('content-length')
    return { parts: cut(text, nonce, formKeys, sentinels.values), status: res.status, headers: [...headers] }
  }

  return {
    serve,
    get size() {
      return templates.size
    },
  }
}

/**
 * The buyer's access token when the request may be answered from a copy (filled, or their own kept
 * page, server/personal-pages.ts): a GET of a page or its data, with their tokens and at most the
 * locale's cookie besides (a toast's cookie, say, is rendered whole), no Authorization and no popup
 * open. The device's remembered-guest cookie may come too: a signed-in page never reads it (the form
 * is filled from the account), and the template is rendered without it.
 */
export function eligibleAccess(req: Request): string | null {
  if (req.method !== 'GET' || req.headers.has('authorization')) return null
  const cookies = parseCookies(req.headers.get('cookie') ?? '')
  const allowed = new Set([
    LOCALE_COOKIE,
    ACCESS_COOKIE,
    REFRESH_COOKIE,
    REMEMBER_COOKIE,
    SECURE_REMEMBER_COOKIE,
  ])
  if (Object.keys(cookies).some((name) => !allowed.has(name))) return null
  const access = cookies[ACCESS_COOKIE]
  if (!access) return null
  const params = new URL(req.url).searchParams
  if (POPUP_PARAMS.some((p) => params.has(p))) return null
  return access
}

/** The request as the template render sees it: the locale's cookie and a token nobody can use. */
function templateRequest(req: Request): Request {
  const cookies = parseCookies(req.headers.get('cookie') ?? '')
  const headers = new Headers(req.headers)
  const locale = cookies[LOCALE_COOKIE]
  headers.set(
    'cookie',
    [
      `${ACCESS_COOKIE}=${TEMPLATE_TOKEN}`,
      ...(locale ? [`${LOCALE_COOKIE}=${encodeURIComponent(locale)}`] : []),
    ].join('; '),
  )
  return new Request(req.url, { method: 'GET', headers })
}

function shareable(res: Response): boolean {
  if (res.status !== 200 || res.headers.get(SHARED_PAGE_HEADER) !== '1') return false
  return res.headers.getSetCookie().every((c) => c.startsWith(`${LOCALE_COOKIE}=`))
}

/** Walks an answer: each leaf that is a hole, in the answer's own order (keys as the API writes them). */
function walk(
  value: unknown,
  onLeaf: (leaf: Leaf, value: string | number) => unknown,
  shape: string[],
  shapeKey = false,
): unknown {
  if (value === null || typeof value === 'boolean') {
    shape.push(String(value))
    return value
  }
  if (Array.isArray(value)) {
    shape.push(`[${value.length}`)
    const out = value.map((v) => walk(v, onLeaf, shape, shapeKey))
    shape.push(']')
    return out
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    shape.push('{')
    for (const k of Object.keys(value as object)) {
      shape.push(JSON.stringify(k))
      out[k] = walk((value as Record<string, unknown>)[k], onLeaf, shape, SHAPE_KEYS.has(k))
    }
    shape.push('}')
    return out
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new NotFillable('number')
    if (shapeKey) {
      shape.push(`int:${value}`)
      return value
    }
    shape.push('int')
    return onLeaf({ kind: 'int' }, value)
  }
  if (typeof value !== 'string') throw new NotFillable(typeof value)
  if (shapeKey) {
    // a closed list of names (social providers): kept as it is, and part of the shape
    if (!/^[a-z_]{1,32}$/.test(value)) throw new NotFillable('shape value')
    shape.push(JSON.stringify(value))
    return value
  }
  if (value === '' || /^0+(\.0+)?$/.test(value)) {
    // empty or zero: the same for everyone who has it so
    shape.push(JSON.stringify(value))
    return value
  }
  const decimal = /^\d+\.(\d+)$/.exec(value)
  if (decimal) {
    shape.push(`dec${decimal[1]!.length}`)
    return onLeaf({ kind: 'dec', decimals: decimal[1]!.length }, value)
  }
  const leaf: Leaf = value.includes('@') ? { kind: 'email' } : { kind: 'text' }
  shape.push(leaf.kind)
  return onLeaf(leaf, value)
}

/** The shape of the buyer's answers and the text of each hole, in order. */
function fillValues(answers: unknown[]): { shape: string; values: string[] } {
  const shape: string[] = []
  const values: string[] = []
  for (const answer of answers)
    walk(
      answer,
      (_leaf, v) => {
        const text = String(v)
        if (!SAFE_TEXT.test(text)) throw new NotFillable('value')
        values.push(text)
        return v
      },
      shape,
    )
  return { shape: shape.join(' '), values }
}

/** The answers with every hole replaced by a sentinel of this round, and those sentinels' text. */
function sentinelAnswers(
  reads: string[],
  answers: unknown[],
  round: 0 | 1,
  tag: string,
): { answers: Map<string, unknown>; values: string[] } {
  const out = new Map<string, unknown>()
  const values: string[] = []
  const digits = round === 0 ? '81' : '7'
  const number = () =>
    `${digits}${String(Number.parseInt(hex(3), 16)).padStart(8, '0')}${String(values.length).padStart(4, '0')}`
  for (const [i, answer] of answers.entries()) {
    const made = walk(
      answer,
      (leaf) => {
        let text: string
        let v: string | number
        if (leaf.kind === 'int') {
          text = number()
          v = Number(text)
        } else if (leaf.kind === 'dec') {
          text = `${number()}.${'37'.repeat(leaf.decimals).slice(0, leaf.decimals)}`
          v = text
        } else {
          const word = `${tag}q${values.length}x`
          text = leaf.kind === 'email' ? `${word}@${round === 0 ? 'fill' : 'Other-fill'}.example` : word
          v = text
        }
        values.push(text)
        return v
      },
      [],
    )
    out.set(reads[i]!, made)
  }
  return { answers: out, values }
}

/** The text cut at the nonce, the form keys and the sentinels. */
function cut(text: string, nonce: string, formKeys: string[], sentinels: string[]): Part[] {
  const tokens = new Map<string, Hole>([[nonce, { nonce: true }]])
  for (const [i, k] of formKeys.entries()) tokens.set(k, { key: i })
  for (const [i, s] of sentinels.entries()) tokens.set(s, { value: i })
  // longest first, so that no token is cut as the start of a longer one
  const pattern = new RegExp(
    `(${[...tokens.keys()]
      .sort((x, y) => y.length - x.length)
      .map(escapeRegExp)
      .join('|')})`,
  )
  return text.split(pattern).map((piece, i) => (i % 2 === 0 ? Buffer.from(piece) : tokens.get(piece)!))
}

/** Whether two cuts have the same text and the same holes in the same order. */
function samePlan(a: Part[], b: Part[]): boolean {
  if (a.length !== b.length) return false
  return a.every((p, i) => {
    const q = b[i]!
    if (Buffer.isBuffer(p) || Buffer.isBuffer(q))
      return Buffer.isBuffer(p) && Buffer.isBuffer(q) && p.equals(q)
    return JSON.stringify(p) === JSON.stringify(q)
  })
}

function fill(template: Template, nonce: string, values: string[]): Response {
  const keys = new Map<number, Buffer>()
  const nonceBytes = Buffer.from(nonce)
  const chunks = template.parts.map((part) => {
    if (Buffer.isBuffer(part)) return part
    if ('nonce' in part) return nonceBytes
    if ('key' in part) {
      let k = keys.get(part.key)
      if (!k) {
        k = Buffer.from(randomUUID())
        keys.set(part.key, k)
      }
      return k
    }
    return Buffer.from(values[part.value]!)
  })
  const headers = new Headers(template.headers)
  headers.set(PAGE_CACHE_STATUS_HEADER, 'fill')
  vary(headers)
  return new Response(Buffer.concat(chunks), { status: template.status, headers })
}

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex')
}
