import { Transform } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { HELD_MODULE_TYPE, HELD_PRELOAD_REL, starterSource } from './scripts-after-paint.server'

const CONTEXT = 'window.__remixContext = '
type Rule = [from: string, to: string]

/**
 * Rewrites what Remix's `<Scripts>` renders as the HTML streams out (a tag split across chunks is
 * held back until it is whole):
 * - the modulepreload links get the response's nonce: under 'strict-dynamic' the browser refuses
 *   parser-inserted preloads that carry none (decision 004);
 * - the preloads and the module script that starts the app are held (an unknown `rel` and `type`
 *   fetch and run nothing), and the starter that lets them go after the first paint opens the
 *   script of Remix's context, which comes before them (decision 104). Inside a script React
 *   already renders, it adds no element for hydration to trip on and no byte to the client's code;
 * - the route manifest in the module script loses the indentation Remix gives it, and the scroll
 *   restoration's inline script is Remix's own, minified (issue 46: 92 B and 116 B of the game
 *   page's gzipped HTML). Remix marks that script `suppressHydrationWarning`, and the manifest is
 *   read, not hydrated. Markup Remix might change is left as it comes.
 */
export function rewriteAppScripts(nonce: string): Transform {
  const decoder = new StringDecoder('utf8')
  const open = `<script nonce="${nonce}">`
  const preload: Rule = ['<link rel="modulepreload"', `<link nonce="${nonce}" rel="${HELD_PRELOAD_REL}"`]
  const starter: Rule = [`${open}${CONTEXT}`, `${open}${starterSource(nonce)};${CONTEXT}`]
  const module: Rule = [
    `<script nonce="${nonce}" type="module" async="">`,
    `<script nonce="${nonce}" type="${HELD_MODULE_TYPE}">`,
  ]
  const scroll: Rule = [`${open}(${REMIX_RESTORE_SCROLL})(`, `${open}(${RESTORE_SCROLL})(`]
  const rules = [preload, starter, module, scroll]
  // the module script is held only once the starter is in (Remix renders the context first): markup
  // Remix might change would leave the app starting at once, never a page without its app
  let starterIn = false
  let carry = ''
  const rewrite = (text: string, final: boolean) => {
    let out = (carry + text).split(preload[0]).join(preload[1])
    if (out.includes(starter[0])) {
      out = out.split(starter[0]).join(starter[1])
      starterIn = true
    }
    if (starterIn) out = out.split(module[0]).join(module[1])
    out = out.split(scroll[0]).join(scroll[1])
    out = compactManifest(out, module[1])
    carry = ''
    // a held module script not yet whole waits for its end, so that its manifest is compacted
    const held = out.lastIndexOf(module[1])
    if (!final && held >= 0 && !out.includes('</script>', held)) {
      carry = out.slice(held)
      return out.slice(0, held)
    }
    if (!final) {
      // the tail may be the start of a tag a rule rewrites: keep it for the next chunk
      const lt = out.lastIndexOf('<')
      const tail = lt >= 0 ? out.slice(lt) : ''
      if (tail && rules.some(([from]) => from.length > tail.length && from.startsWith(tail))) {
        carry = tail
        out = out.slice(0, lt)
      }
    }
    return out
  }
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(null, rewrite(decoder.write(chunk), false))
    },
    flush(done) {
      done(null, rewrite(decoder.end(), true))
    },
  })
}

const MANIFEST = 'window.__remixManifest = '
const MANIFEST_END = ';\nwindow.__remixRouteModules'

/** The route manifest of each whole held module script in `html`, without its indentation. */
function compactManifest(html: string, heldOpen: string): string {
  let from = 0
  let out = ''
  for (;;) {
    const at = html.indexOf(heldOpen, from)
    const end = at >= 0 ? html.indexOf('</script>', at) : -1
    if (end < 0) return out + html.slice(from)
    const script = html.slice(at, end)
    const start = script.indexOf(MANIFEST)
    const stop = start >= 0 ? script.indexOf(MANIFEST_END, start) : -1
    let compact = script
    if (stop >= 0) {
      try {
        const json = JSON.stringify(JSON.parse(script.slice(start + MANIFEST.length, stop)))
        compact = script.slice(0, start + MANIFEST.length) + json + script.slice(stop)
      } catch {
        // not the manifest as Remix writes it: left as it is
      }
    }
    out += html.slice(from, at) + compact
    from = end
  }
}

/** The source of the scroll restoration's inline script as Remix 2 renders it (restoreScroll). */
const REMIX_RESTORE_SCROLL = `(STORAGE_KEY, restoreKey) => {
    if (!window.history.state || !window.history.state.key) {
      let key = Math.random().toString(32).slice(2);
      window.history.replaceState({
        key
      }, "");
    }
    try {
      let positions = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || "{}");
      let storedY = positions[restoreKey || window.history.state.key];
      if (typeof storedY === "number") {
        window.scrollTo(0, storedY);
      }
    } catch (error) {
      console.error(error);
      sessionStorage.removeItem(STORAGE_KEY);
    }
  }`

/** The same, minified. */
const RESTORE_SCROLL =
  '(k,r)=>{var h=window.history;if(!h.state||!h.state.key)h.replaceState({key:Math.random().toString(32).slice(2)},"");' +
  'try{var y=JSON.parse(sessionStorage.getItem(k)||"{}")[r||h.state.key];if(typeof y==="number")window.scrollTo(0,y)}' +
  'catch(e){console.error(e);sessionStorage.removeItem(k)}}'
