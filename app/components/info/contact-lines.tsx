import type { ReactNode } from 'react'

const EMAIL_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/
const PHONE_RE = /\+?\d[\d ()-]{8,}\d/

/** One line of the contact's free text, with an e-mail or phone number made a link. */
function linkify(line: string): ReactNode {
  const email = EMAIL_RE.exec(line)
  if (email) {
    return (
      <>
        {line.slice(0, email.index)}
        <a href={`mailto:${email[0]}`}>{email[0]}</a>
        {line.slice(email.index + email[0].length)}
      </>
    )
  }
  const phone = PHONE_RE.exec(line)
  if (phone) {
    return (
      <>
        {line.slice(0, phone.index)}
        <a href={`tel:${phone[0].replace(/[^\d+]/g, '')}`}>{phone[0]}</a>
        {line.slice(phone.index + phone[0].length)}
      </>
    )
  }
  return line
}

/** The contact's `extra` text: one list item per non-empty line. */
export function ContactLines({ text }: { text: string }) {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  if (lines.length === 0) return null
  return (
    <ul className="info-contacts__extra">
      {lines.map((line) => (
        <li key={line} className="info-contacts__line">
          {linkify(line)}
        </li>
      ))}
    </ul>
  )
}
