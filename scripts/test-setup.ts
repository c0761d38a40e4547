// The first step of `npm test` on a fresh machine: Debian's Chromium and haproxy, installed when
// missing (as root), or a stop at once with the exact command to run.
import { CHROMIUM, ensureSystemPackages, HAPROXY } from './system-packages'

try {
  ensureSystemPackages([CHROMIUM, HAPROXY])
} catch (e) {
  console.error((e as Error).message)
  process.exit(1)
}
