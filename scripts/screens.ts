// `npm run screens`: photographs the shop's main screens at 360 and 1280 px into docs/screens/,
// from the e2e run itself (e2e/phone.spec.ts with SAVE_SCREENS=1: the built app on a fresh demo
// database, JavaScript on), then writes docs/screens/README.md so a reader sees the shop without
// starting it. Needs `npm run build` first; E2E_PORT / E2E_FAKE_SOCIAL_PORT as for the e2e suite.
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { slug } from '../e2e/phone-steps'
import { SCREENS } from '../e2e/screens'

const dir = fileURLToPath(new URL('../docs/screens/', import.meta.url))
const run = spawnSync('npx', ['playwright', 'test', 'e2e/phone.spec.ts', '--workers=1'], {
  stdio: 'inherit',
  env: { ...process.env, SAVE_SCREENS: '1' },
})
if (run.status !== 0) {
  console.error('the phone layout run failed: screenshots may be missing or stale')
  process.exit(run.status ?? 1)
}

const rows = SCREENS.filter((s) => s.main).map((s) => {
  const name = slug(s.name)
  for (const w of [360, 1280]) {
    if (!existsSync(`${dir}${name}-${w}.png`)) throw new Error(`missing ${name}-${w}.png`)
  }
  return `| ${s.name} | ![${s.name}, 360 px](${name}-360.png) | ![${s.name}, 1280 px](${name}-1280.png) |`
})
writeFileSync(
  `${dir}README.md`,
  [
    '# The shop on a phone (360 px) and a desktop (1280 px)',
    '',
    'Made by `npm run screens` from the e2e run (e2e/phone.spec.ts, the demo catalogue, JavaScript on).',
    'Whole pages; the back-office screens (admin-*) come from the back-office e2e run.',
    '',
    '| screen | 360 px | 1280 px |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n'),
)
console.log(`${rows.length} screens written to docs/screens/`)
