// Checksums of Russian registration numbers (ИНН of an organisation or a person, ОГРН, ОГРНИП), so a
// typo is refused when the owner saves the requisites, not by the fiscal service at the first sale.

const digits = (s: string) => [...s].map(Number)

function weighted(d: number[], weights: number[]): number {
  return (weights.reduce((sum, w, i) => sum + w * (d[i] as number), 0) % 11) % 10
}

const W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8]
const W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]
const W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]

/** ИНН: 10 digits (an organisation) or 12 (a person, an ИП), with their check digits. */
export function isValidInn(inn: string): boolean {
  if (!/^(\d{10}|\d{12})$/.test(inn)) return false
  const d = digits(inn)
  if (d.length === 10) return weighted(d, W10) === d[9]
  return weighted(d, W11) === d[10] && weighted(d, W12) === d[11]
}

/** ОГРН (13 digits: remainder mod 11) or ОГРНИП (15 digits: remainder mod 13), last digit of it. */
export function isValidOgrn(ogrn: string): boolean {
  if (!/^(\d{13}|\d{15})$/.test(ogrn)) return false
  const body = BigInt(ogrn.slice(0, -1))
  const mod = ogrn.length === 13 ? 11n : 13n
  return Number((body % mod) % 10n) === Number(ogrn.slice(-1))
}
