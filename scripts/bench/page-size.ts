import { request } from 'node:http'

export interface PageSize {
  path: string
  /** What a browser gets asking `gzip, deflate, br, zstd`: the encoding the server chose, and bytes. */
  browser: { encoding: string; bytes: number }
  /** Bytes when only gzip is accepted (null: not sent gzipped). */
  gzip: number | null
  identity: number
}

/** What browsers send (Chromium 156). */
const BROWSER_ACCEPT = 'gzip, deflate, br, zstd'

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

/**
 * What each page's HTML weighs on the wire, as a browser asks for it, gzip only and uncompressed.
 * Each page is loaded once first and given a moment, so that the figures are those of the page as
 * the cache serves it (kept, and compressed once), not of a first render.
 */
export async function pageSizes(base: string, paths: string[]): Promise<PageSize[]> {
  const out: PageSize[] = []
  for (const path of paths) {
    const url = `${base}${path}`
    await wireBytes(url, BROWSER_ACCEPT)
    await new Promise((r) => setTimeout(r, 200))
    const browser = await wireBytes(url, BROWSER_ACCEPT)
    const gzip = await wireBytes(url, 'gzip')
    const identity = await wireBytes(url, 'identity')
    out.push({
      path,
      browser,
      gzip: gzip.encoding === 'gzip' ? gzip.bytes : null,
      identity: identity.bytes,
    })
  }
  return out
}
