import { Transform } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'

const PRELOAD = '<link rel="modulepreload"'

/**
 * Remix renders `<link rel="modulepreload">` without a nonce, and under 'strict-dynamic' the
 * browser refuses parser-inserted preloads that carry none. This adds the response's nonce to them
 * as the HTML streams out (a tag split across chunks is held back until it is whole).
 */
export function nonceModulePreloads(nonce: string): Transform {
  const decoder = new StringDecoder('utf8')
  const replacement = `<link nonce="${nonce}" rel="modulepreload"`
  let carry = ''
  const rewrite = (text: string, final: boolean) => {
    let out = (carry + text).split(PRELOAD).join(replacement)
    carry = ''
    if (!final) {
      const lt = out.lastIndexOf('<')
      if (lt >= 0 && out.length - lt < PRELOAD.length && PRELOAD.startsWith(out.slice(lt))) {
        carry = out.slice(lt)
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
