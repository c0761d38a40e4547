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
 *   already renders, it adds no element for hydration to trip on and no byte to the client's code.
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
  const rules = [preload, starter, module]
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
    carry = ''
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
