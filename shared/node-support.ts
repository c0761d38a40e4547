// Node.js releases past their end of life (decision 077; the dates are Node's own schedule): a
// shop started on one warns in its log and on the back-office overview (issue 48).
const END_OF_LIFE: Record<number, string> = { 18: '2025-04-30', 20: '2026-04-30' }

/** Where the log line and the overview send the owner. */
export const NODE_UPGRADE_DOC = 'docs/operations.md, section «Node.js»'

/** The running Node.js when its support has ended (with the day it ended), else null. */
export function nodeEndOfLife(
  version: string = process.versions.node,
): { version: string; endedOn: string } | null {
  const major = Number(version.replace(/^v/, '').split('.')[0])
  const endedOn = END_OF_LIFE[major] ?? (major < 18 ? 'before 2025' : undefined)
  return endedOn ? { version: version.replace(/^v/, ''), endedOn } : null
}
