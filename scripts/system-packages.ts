// What `npm test` needs that npm cannot install: Debian's Chromium (e2e) and haproxy (the balancer
// test). Installed with apt-get when missing and running as root; otherwise a clear stop with the
// exact command to run.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export interface SystemPackage {
  /** Debian package name. */
  name: string
  /** The file it provides, to know whether it is there. */
  binary: string
}

export const CHROMIUM: SystemPackage = { name: 'chromium', binary: '/usr/bin/chromium' }
export const HAPROXY: SystemPackage = { name: 'haproxy', binary: '/usr/sbin/haproxy' }

export function installCommand(packages: SystemPackage[]): string {
  return `apt-get update && apt-get install -y ${packages.map((p) => p.name).join(' ')}`
}

/** Installs the missing packages (as root), or throws with the command a root user must run. */
export function ensureSystemPackages(packages: SystemPackage[]): void {
  const missing = packages.filter((p) => !existsSync(p.binary))
  if (missing.length === 0) return
  const command = installCommand(missing)
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing ${missing.map((p) => p.binary).join(', ')}. Run as root:\n  ${command}`)
  }
  console.log(`Installing ${missing.map((p) => p.name).join(', ')} with apt-get…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing.map((p) => p.name)], { stdio: 'inherit', env })
  for (const p of missing)
    if (!existsSync(p.binary)) throw new Error(`apt-get installed ${p.name} but ${p.binary} is missing`)
}
