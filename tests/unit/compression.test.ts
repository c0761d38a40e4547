// The compression middleware on a real Hono app and real zlib: what a browser or client gets back.
import { randomBytes } from 'node:crypto'
import { PassThrough, Readable } from 'node:stream'
import { brotliDecompressSync, createBrotliDecompress, gunzipSync, gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { chooseEncoding, compression } from '../../server/compression'

const page = `<!doctype html><html><body>${'<p>Пополнение UC и подарочные карты</p>'.repeat(200)}</body></html>`

function app() {
  const a = new Hono()
  a.use('*', compression({ isImmutable: (p) => p.startsWith('/assets/') }))
  a.get('/page', (c) => c.html(page))
  a.get('/tiny', (c) =>
    c.body('{"ok":true}', 200, { 'content-type': 'application/json', 'content-length': '11' }),
  )
  // an API answer as Hono's c.json makes it: no length until measured
  a.get('/api/small', (c) => c.json({ ok: true }))
  a.get('/api/huge', (c) =>
    c.json({ rows: Array.from({ length: 4000 }, (_, id) => ({ id, code: `UC-${id}` })) }),
  )
  a.get('/api/big', (c) =>
    c.json({ games: Array.from({ length: 100 }, (_, id) => ({ id, title: 'PUBG Mobile' })) }),
  )
  a.get('/picture.png', (c) => c.body(new Uint8Array(5000), 200, { 'content-type': 'image/png' }))
  a.get('/assets/app.js', (c) =>
    c.body('console.log("x");'.repeat(500), 200, { 'content-type': 'text/javascript' }),
  )
  a.get('/stream', () => {
    let pull = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pull++
        controller.enqueue(new TextEncoder().encode(`<div>часть ${pull}</div>`.repeat(100)))
        if (pull === 3) controller.close()
        else await new Promise((r) => setTimeout(r, 50))
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })
  })
  // a page written in a burst of small chunks, as React writes one (2 KB each)
  a.get('/burst', () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++)
          controller.enqueue(
            new TextEncoder().encode(`<li class="product-card">Пакет ${i} UC</li>`.repeat(40)),
          )
        controller.close()
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })
  })
  // a long page whose render is faster than its reader, written as React writes a page: chunks in a
  // burst into a Node stream, pausing only when write() says the stream is full (issue 46's review)
  a.get('/flood', () => {
    const body = new PassThrough()
    const write = () => {
      while (flood.written < FLOOD_CHUNKS) {
        flood.written++
        // text that barely compresses, so the compressor's output fills its buffers as a page would
        const more = body.write(randomBytes(1536).toString('base64'))
        if (flood.written === FLOOD_CHUNKS) body.end()
        else if (!more) return void body.once('drain', write)
      }
    }
    write()
    return new Response(Readable.toWeb(body) as ReadableStream, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  })
  return a
}

const FLOOD_CHUNKS = 2000
const flood = { written: 0 }

const get = (path: string, acceptEncoding?: string, method = 'GET') =>
  app().request(path, { method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} })

describe('response compression', () => {
  it('brotli when accepted, else gzip, else none; the bytes decode to the same page', async () => {
    const br = await get('/page', 'gzip, deflate, br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(brotliDecompressSync(brBytes).toString()).toBe(page)
    expect(brBytes.length).toBeLessThan(Buffer.byteLength(page) / 10)

    const gz = await get('/page', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(page)

    const plain = await get('/page')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toBe('Accept-Encoding')
    expect(await plain.text()).toBe(page)
  })

  it('honours q=0 and wildcards', () => {
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip')
    expect(chooseEncoding('gzip;q=0, br;q=0')).toBeNull()
    expect(chooseEncoding('*')).toBe('br')
    expect(chooseEncoding('identity')).toBeNull()
    expect(chooseEncoding('GZIP;q=0.5')).toBe('gzip')
  })

  it('leaves small answers, images and HEAD alone', async () => {
    expect((await get('/tiny', 'br')).headers.get('content-encoding')).toBeNull()
    expect((await get('/picture.png', 'br')).headers.get('content-encoding')).toBeNull()
    const head = await get('/page', 'br', 'HEAD')
    expect(head.headers.get('content-encoding')).toBeNull()
  })

  it('measures JSON answers: a small one goes plain with its length, a big one compressed whole', async () => {
    const small = await get('/api/small', 'gzip, br')
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(small.headers.get('vary')).toBeNull()
    expect(small.headers.get('content-length')).toBe('11')
    expect(await small.text()).toBe('{"ok":true}')

    const big = await get('/api/big', 'gzip, br')
    expect(big.headers.get('content-encoding')).toBe('br')
    expect(big.headers.get('vary')).toBe('Accept-Encoding')
    const bytes = Buffer.from(await big.arrayBuffer())
    expect(big.headers.get('content-length')).toBe(String(bytes.length))
    expect(JSON.parse(brotliDecompressSync(bytes).toString()).games).toHaveLength(100)
    // a big one (past 64 KB) is compressed on the thread pool: the same bytes on the wire
    const huge = await get('/api/huge', 'gzip')
    const hugeBytes = Buffer.from(await huge.arrayBuffer())
    expect(huge.headers.get('content-length')).toBe(String(hugeBytes.length))
    expect(JSON.parse(gunzipSync(hugeBytes).toString()).rows).toHaveLength(4000)
    const plain = await get('/api/big')
    expect(plain.headers.get('content-length')).toBe(String((await plain.text()).length))
  })

  it('streams: the first part of a page arrives before the page is finished', async () => {
    const res = await get('/stream', 'br')
    expect(res.headers.get('content-encoding')).toBe('br')
    const reader = res.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    // the first flushed piece decodes to the first part, before the rest was produced
    const decoder = createBrotliDecompress()
    const text = new Promise<string>((resolve) => decoder.once('data', (d: Buffer) => resolve(d.toString())))
    decoder.write(Buffer.from(first.value!))
    expect(await text).toContain('часть 1')
    expect(await text).not.toContain('часть 2')
    await reader.cancel()
    decoder.destroy()
  })

  it('a page written in a burst of chunks is compressed as one piece, not a block per chunk', async () => {
    const res = await get('/burst', 'gzip')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const wire = Buffer.from(await res.arrayBuffer())
    const text = gunzipSync(wire).toString()
    expect(text.match(/<li /g)).toHaveLength(1600)
    // flushed chunk by chunk, 40 blocks each with its own code tables: about 2.5 times this
    expect(wire.byteLength).toBeLessThan(gzipSync(text, { level: 6 }).byteLength + 64)
  })

  it('a reader that does not keep up holds the page back: the render is not queued whole in memory', async () => {
    flood.written = 0
    const res = await get('/flood', 'br')
    expect(res.headers.get('content-encoding')).toBe('br')
    // nobody reads the body: the render must stop after what the buffers hold (a few of its 2 KB
    // chunks), not run on to the end (4 MB here) into memory
    await new Promise((r) => setTimeout(r, 500))
    expect(flood.written).toBeLessThan(FLOOD_CHUNKS / 4)
    // and the whole page still arrives once it is read
    const wire = Buffer.from(await res.arrayBuffer())
    expect(brotliDecompressSync(wire).byteLength).toBe(FLOOD_CHUNKS * 2048)
  })

  it('hashed assets: compressed once at the highest level, with their length', async () => {
    const a = await get('/assets/app.js', 'br')
    expect(a.headers.get('content-encoding')).toBe('br')
    const bytes = Buffer.from(await a.arrayBuffer())
    expect(a.headers.get('content-length')).toBe(String(bytes.length))
    expect(brotliDecompressSync(bytes).toString()).toBe('console.log("x");'.repeat(500))
    const again = await get('/assets/app.js', 'br')
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true)
  })
})
