/** A code as staff see it in lists: enough to match what a buyer reads out, not to use it. */
export function maskCode(code: string): string {
  if (code.length <= 4) return '••••'
  return `${'•'.repeat(Math.min(8, code.length - 4))}${code.slice(-4)}`
}
