// The one allow-list HTML sanitizer of the shop: article, product and gift text from the API (run
// in the loaders) and HTML tooltips (run in the browser when a tooltip first opens). Pure, no DOM,
// so the same code and the same allow-list serve both (decision 095 records why no library).
//
// It tokenizes the input roughly as a browser would and re-serializes only what it trusts: the
// tags below, no attributes except a checked `href` on links, and text with `<`, `>` and stray `&`
// escaped. Anything it cannot read as a well-formed tag is kept as visible text, never as markup,
// so a parsing disagreement with the browser fails safe.

/** The allow-list: block text, lists, inline formatting and links. No attributes but a checked href. */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'p',
  'h2',
  'h3',
  'ul',
  'ol',
  'li',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'small',
  'span',
  'code',
  'a',
  'br',
])
const VOID = new Set(['br'])
/**
 * Elements dropped together with everything inside: the raw-text elements of HTML, and those whose
 * content is markup or code, never a message (template, svg, math).
 */
const RAW_TEXT = new Set([
  'template',
  'svg',
  'math',
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
])

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
}

const ENTITY_RE = /&(#\d{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[a-zA-Z][a-zA-Z0-9]{0,31};)/g

/**
 * Decodes character references so a link is checked as the author wrote it. Safety does not rest
 * on matching the browser here: the checked string is written back fully escaped, so the browser
 * reads exactly what was checked.
 */
function decodeEntities(value: string): string {
  return value.replace(ENTITY_RE, (whole, ref: string) => {
    if (ref[0] === '#') {
      const digits = ref.replace(/;$/, '')
      const hex = digits[1] === 'x' || digits[1] === 'X'
      const code = hex ? Number.parseInt(digits.slice(2), 16) : Number(digits.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd'
    }
    return NAMED_ENTITIES[ref.slice(0, -1).toLowerCase()] ?? whole
  })
}

function escapeText(text: string): string {
  // keep well-formed character references, escape every other `&`
  return text
    .replace(/&(?!(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{0,31});)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * A link target we allow: http(s), mailto, tel, or a URL relative to this site (not `//host`,
 * which is another site). Returns the cleaned URL exactly as
 * the browser will read it, or null.
 */
export function safeHref(raw: string): string | null {
  const decoded = decodeEntities(raw)
  // URL parsers drop tabs and newlines anywhere and trim C0 controls and spaces at the ends
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what must go
  const url = decoded.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control characters inside a link
  if (!url || /[\u0000-\u001f\u007f\\]/.test(url)) return null
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)
  if (scheme) return ['http', 'https', 'mailto', 'tel'].includes(scheme[1]!.toLowerCase()) ? url : null
  // no scheme: relative (a colon before the first / ? # would make it look like one; a leading
  // `//` names another host)
  return /^[^/?#]*:/.test(url) || url.startsWith('//') ? null : url
}

interface Tag {
  name: string
  end: boolean
  attrs: Map<string, string>
  /** index just past the closing `>` */
  next: number
}

const NAME_START = /[a-zA-Z]/
const SPACE = /[\t\n\f\r ]/

/** Reads a tag at `<` like the HTML tokenizer does; null when the input ends inside it. */
function readTag(html: string, start: number): Tag | null {
  let i = start + 1
  const end = html[i] === '/'
  if (end) i++
  let name = ''
  while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '/' && html[i] !== '>') name += html[i++]
  const attrs = new Map<string, string>()
  while (i < html.length) {
    const ch = html[i]!
    if (SPACE.test(ch) || ch === '/') {
      i++
      continue
    }
    if (ch === '>') return { name: name.toLowerCase(), end, attrs, next: i + 1 }
    let attr = ch
    i++
    while (i < html.length && !SPACE.test(html[i]!) && !'/>='.includes(html[i]!)) attr += html[i++]
    while (i < html.length && SPACE.test(html[i]!)) i++
    let value = ''
    if (html[i] === '=') {
      i++
      while (i < html.length && SPACE.test(html[i]!)) i++
      const quote = html[i]
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1)
        if (close < 0) return null
        value = html.slice(i + 1, close)
        i = close + 1
      } else {
        while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '>') value += html[i++]
      }
    }
    const key = attr.toLowerCase()
    if (!attrs.has(key)) attrs.set(key, value)
  }
  return null
}

/** Skips a raw-text element's content: the index after its end tag, or the end of the input. */
function skipRawText(html: string, name: string, from: number): number {
  if (name === 'plaintext') return html.length
  const re = new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, 'ig')
  re.lastIndex = from
  const m = re.exec(html)
  if (!m) return html.length
  const close = html.indexOf('>', m.index)
  return close < 0 ? html.length : close + 1
}

export interface SanitizeOptions {
  /** Links open in a new tab (tooltips): `target="_blank" rel="noopener noreferrer"`. */
  newTab?: boolean
}

/** Sanitized HTML: only the allowed tags, safe links (rel="noopener"), escaped text. */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const linkAttrs = options.newTab ? ' rel="noopener noreferrer" target="_blank"' : ' rel="noopener"'
  let out = ''
  const open: string[] = []
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      out += escapeText(html.slice(i))
      break
    }
    out += escapeText(html.slice(i, lt))
    i = lt
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4)
      i = close < 0 ? html.length : close + 3
      continue
    }
    const after = html[i + 1] ?? ''
    if (after === '!' || after === '?' || (after === '/' && html[i + 2] === '>')) {
      // bogus comment or `</>`: the browser drops it
      const close = html.indexOf('>', i)
      i = close < 0 ? html.length : close + 1
      continue
    }
    const isTag = NAME_START.test(after) || (after === '/' && NAME_START.test(html[i + 2] ?? ''))
    if (!isTag) {
      out += '&lt;'
      i++
      continue
    }
    const tag = readTag(html, i)
    if (!tag) break // the input ends inside a tag: the browser drops it too
    i = tag.next
    if (!tag.end && RAW_TEXT.has(tag.name)) {
      i = skipRawText(html, tag.name, i)
      continue
    }
    if (!ALLOWED_TAGS.has(tag.name)) continue
    if (tag.end) {
      const at = open.lastIndexOf(tag.name)
      if (at < 0) continue
      while (open.length > at) out += `</${open.pop()}>`
      continue
    }
    if (VOID.has(tag.name)) {
      out += `<${tag.name}>`
      continue
    }
    if (tag.name === 'a') {
      const href = safeHref(tag.attrs.get('href') ?? '')
      out += href === null ? '<a>' : `<a href="${escapeAttribute(href)}"${linkAttrs}>`
    } else {
      out += `<${tag.name}>`
    }
    open.push(tag.name)
  }
  while (open.length) out += `</${open.pop()}>`
  return out
}

/**
 * The text a reader sees in owner-written HTML, for places that take no markup (meta descriptions,
 * structured data): the sanitized HTML with its tags turned into spaces and entities decoded.
 */
export function htmlToText(html: string): string {
  return decodeEntities(sanitizeHtml(html).replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()
}
