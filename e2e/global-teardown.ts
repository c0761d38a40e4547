// After the whole run: the shop's log (.cache/e2e-<port>.log, written by scripts/e2e-server.mjs)
// must hold the run's access lines and no email address at all — every email the tests typed
// (sign-ups, orders, look-ups) included (issue 19: logs leak no personal data).
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/

export default async function globalTeardown() {
  const port = Number(process.env.E2E_PORT ?? 3200)
  const file = fileURLToPath(new URL(`../.cache/e2e-${port}.log`, import.meta.url))
  // the server may still be flushing its last lines
  await new Promise((r) => setTimeout(r, 500))
  if (!existsSync(file)) throw new Error(`the e2e server wrote no log at ${file}`)
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
  const accessLines = lines.filter((l) => l.includes('"msg":"request"'))
  if (accessLines.length === 0)
    throw new Error(`the e2e server's log has no access lines: is logging broken? (${file})`)
  const leaks = lines.filter((l) => EMAIL.test(l))
  if (leaks.length > 0)
    throw new Error(
      `the shop's log holds ${leaks.length} line(s) with an email address (${file}):\n${leaks.slice(0, 5).join('\n')}`,
    )
}
