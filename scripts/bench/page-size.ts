import { request } from 'node:http'

export interface PageSize {
  path: string
  /** Bytes of the HTML as sent on the wire for each encoding asked (null: not sent that way). */
  br: number | null
  gzip: number | null
  identity: number
}

/** The body's bytes as the server sent them for one Accept-Encoding, and the encoding it chose. */
function wireBytes(url: string, encoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength
      })
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`))
        else resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** What each page's HTML weighs on the wire, brotli, gzip and uncompressed. */
export async function pageSizes(base: string, paths: string[]): Promise<PageSize[]> {
  const out: PageSize[] = []
  for (const path of paths) {
    const url = `${base}${path}`
    const [br, gzip, identity] = await Promise.all(['br', 'gzip', 'identity'].map((e) => wireBytes(url, e)))
    out.push({
      path,
      br: br!.encoding === 'br' ? br!.bytes : null,
      gzip: gzip!.encoding === 'gzip' ? gzip!.bytes : null,
      identity: identity!.bytes,
    })
  }
  return out
}
