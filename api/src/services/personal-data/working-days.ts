// The legal deadline of a personal data request (152-ФЗ, art. 14, 20, 21): 10 working days from the
// day the request was received. Working days are Monday to Friday in Moscow; public holidays and the
// government's moved days are not modelled (decision 088), so the date shown is never later than
// the real one.

const MOSCOW_OFFSET_MS = 3 * 3600 * 1000

/** The Moscow calendar date (YYYY-MM-DD) of an instant. */
export const moscowDate = (at: Date) => new Date(at.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10)

/** The calendar date `days` working days after the Moscow day of `from` (Saturdays and Sundays skipped). */
export function addWorkingDays(from: Date, days: number): string {
  const d = new Date(`${moscowDate(from)}T00:00:00Z`)
  let left = days
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1)
    const weekday = d.getUTCDay()
    if (weekday !== 0 && weekday !== 6) left -= 1
  }
  return d.toISOString().slice(0, 10)
}

/** Working days a request has to be answered in. */
export const DATA_REQUEST_WORKING_DAYS = 10
