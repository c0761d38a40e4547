// Finding 8 of the security audit: does a flood of OpenAPI document requests starve the health
// check? Against a running shop (BENCH_URL, default http://localhost:3000): health latency alone,
// then while 100 `GET /api/docs/schema/?format=yaml` are in flight (5 rounds), and the time the
// 100 take. The audit measured 4.3 s for health when the document was rebuilt per request.
//   npm start & npx tsx scripts/bench/schema-flood.ts
const base = process.env.BENCH_URL ?? 'http://localhost:3000'
const SCHEMA = '/api/docs/schema/?format=yaml'

async function timed(path: string): Promise<number> {
  const started = performance.now()
  const res = await fetch(base + path)
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`)
  return performance.now() - started
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const flood = () => Promise.all(Array.from({ length: 100 }, () => timed(SCHEMA)))

for (let i = 0; i < 5; i++) await timed(SCHEMA) // warm: the document is built once per process
const alone: number[] = []
for (let i = 0; i < 20; i++) alone.push(await timed('/api/health/'))
const during: number[] = []
for (let round = 0; round < 5; round++) {
  const running = flood()
  during.push(await timed('/api/health/'))
  await running
}
const started = performance.now()
await flood()
const floodMs = performance.now() - started
console.log(
  `health alone: median ${median(alone).toFixed(1)} ms; during 100 parallel schema requests: ` +
    `median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms ` +
    `(${(median(during) / median(alone)).toFixed(0)}× alone); the 100 requests: ${floodMs.toFixed(0)} ms`,
)

export {}
