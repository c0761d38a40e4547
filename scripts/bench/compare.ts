// Two builds of the shop side by side, in alternating rounds (this machine's load drifts too much
// for runs minutes apart to compare): `tsx scripts/bench/compare.ts <other checkout> [rounds]`.
// Each shop runs `server/main.ts` of its own checkout (built, node_modules present) on a copy of
// the bench's database (`.cache/bench-data`, made by `npm run bench`), without jobs; a signed-in
// buyer of each loads the four signed-in pages. Prints req/s, p99 and CPU ms per request of each
// round, beside the bare Remix page of the same round. BENCH_PORT (3900) is the first of 3 ports.
import { cpSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { measure } from './http-load'
import { startProcess } from './processes'
import { signedInBuyer, treeCpuMs } from './signed-in'

const root = fileURLToPath(new URL('../../', import.meta.url))
const other = process.argv[2] ?? ''
if (!other) throw new Error('usage: tsx scripts/bench/compare.ts <other checkout> [rounds]')
const rounds = Number(process.argv[3] ?? 3)
const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const portBase = Number(process.env.BENCH_PORT ?? 3900)

async function shop(dir: string, name: string, port: number) {
  const dataDir = `${root}.cache/compare-${name}`
  rmSync(dataDir, { recursive: true, force: true })
  cpSync(`${root}.cache/bench-data`, dataDir, { recursive: true })
  const proc = await startProcess(process.execPath, ['--import', 'tsx', `${dir}/server/main.ts`], {
    env: { PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'production', JOBS: '0', HOST: '127.0.0.1' },
    url: `http://127.0.0.1:${port}`,
    readyUrl: `http://127.0.0.1:${port}/api/health/`,
    timeoutMs: 300_000,
  })
  const buyer = await signedInBuyer(proc.url)
  return { name, proc, buyer }
}

async function main() {
  const bare = await startProcess(
    process.execPath,
    [`${root}node_modules/tsx/dist/cli.mjs`, 'scripts/bench/serve-bare.ts'],
    {
      env: { PORT: String(portBase), NODE_ENV: 'production' },
      url: `http://127.0.0.1:${portBase}/`,
      readyUrl: `http://127.0.0.1:${portBase}/`,
    },
  )
  const shops = [await shop(other, 'other', portBase + 1), await shop(root, 'this', portBase + 2)]
  const paths = (orderId: string) => ['/products/1', '/', '/profile', `/orders/${orderId}/pay`]
  console.log('| round | page | shop | req/s | p99 ms | CPU ms/req | vs bare Remix |')
  console.log('| ---: | --- | --- | ---: | ---: | ---: | ---: |')
  for (let r = 1; r <= rounds; r++) {
    const b = await measure('bare', bare.url, seconds, 10, {}, () => treeCpuMs(bare.pid))
    console.log(`| ${r} | bare Remix | | ${b.rps} | ${b.p99} | ${b.cpuMsPerRequest?.toFixed(2)} | 100 % |`)
    for (let i = 0; i < 4; i++) {
      for (const s of r % 2 ? shops : [...shops].reverse()) {
        const path = paths(s.buyer.orderId)[i]!
        const m = await measure(path, `${s.proc.url}${path}`, seconds, 10, { cookie: s.buyer.cookie }, () =>
          treeCpuMs(s.proc.pid),
        )
        console.log(
          `| ${r} | ${i === 3 ? '/orders/{id}/pay' : path} | ${s.name} | ${m.rps} | ${m.p99} | ${m.cpuMsPerRequest?.toFixed(2)} | ${Math.round((m.rps / b.rps) * 100)} % |`,
        )
      }
    }
  }
  for (const s of shops) await s.proc.stop()
  await bare.stop()
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
