// The one layout of every mail (React Email): a dark band with the shop's name, a white card of at
// most 600 px that narrows with the screen, 16 px text, a full-width button with its link spelled
// out beneath for clients that block buttons, and the same footer. Inline styles only: mail
// clients drop <style> blocks and external CSS.
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components'
import { type CSSProperties, createContext, type ReactNode, useContext } from 'react'
import { fill, M } from '../messages'

const font =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif"
const mono = "'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace"

const s = {
  body: { backgroundColor: '#eef0f5', margin: 0, padding: '16px 0', fontFamily: font } as CSSProperties,
  container: { maxWidth: '600px', width: '100%', margin: '0 auto' } as CSSProperties,
  band: { backgroundColor: '#0f1420', borderRadius: '12px 12px 0 0', padding: '16px 24px' } as CSSProperties,
  brand: {
    color: '#ffffff',
    fontSize: '20px',
    fontWeight: 700,
    margin: 0,
    lineHeight: '28px',
  } as CSSProperties,
  tagline: { color: '#b3bdd4', fontSize: '13px', margin: 0, lineHeight: '18px' } as CSSProperties,
  card: {
    backgroundColor: '#ffffff',
    borderRadius: '0 0 12px 12px',
    padding: '8px 24px 24px',
  } as CSSProperties,
  h1: { color: '#111827', fontSize: '24px', lineHeight: '32px', margin: '16px 0 8px' } as CSSProperties,
  h2: { color: '#111827', fontSize: '18px', lineHeight: '26px', margin: '24px 0 8px' } as CSSProperties,
  p: { color: '#1f2937', fontSize: '16px', lineHeight: '24px', margin: '8px 0' } as CSSProperties,
  muted: { color: '#4b5563', fontSize: '14px', lineHeight: '20px', margin: '8px 0' } as CSSProperties,
  button: {
    backgroundColor: '#6c5ce7',
    borderRadius: '8px',
    color: '#ffffff',
    display: 'block',
    fontSize: '16px',
    fontWeight: 600,
    lineHeight: '24px',
    padding: '12px 16px',
    textAlign: 'center',
    textDecoration: 'none',
  } as CSSProperties,
  link: { color: '#4c3fd1', wordBreak: 'break-all' } as CSSProperties,
  code: {
    backgroundColor: '#f3f4f6',
    border: '1px solid #d1d5db',
    borderRadius: '8px',
    color: '#111827',
    fontFamily: mono,
    fontSize: '18px',
    letterSpacing: '1px',
    lineHeight: '26px',
    margin: '4px 0',
    padding: '8px 12px',
    wordBreak: 'break-all',
  } as CSSProperties,
  label: {
    color: '#4b5563',
    fontSize: '14px',
    lineHeight: '20px',
    padding: '4px 12px 4px 0',
  } as CSSProperties,
  value: {
    color: '#111827',
    fontSize: '15px',
    lineHeight: '20px',
    padding: '4px 0',
    textAlign: 'right',
  } as CSSProperties,
  footer: { color: '#6b7280', fontSize: '13px', lineHeight: '18px', margin: '8px 24px' } as CSSProperties,
}

/** The seller line of every mail's footer (the owner's requisites), provided by the render. */
export const SellerLineContext = createContext<string | null>(null)
/** The shop's name from the owner's settings (issue 37), provided by the render. */
export const ShopNameContext = createContext<string>(M.shop)
/** The line under the name: the owner's tagline (issue 47) or the built-in one, provided by the render. */
export const TaglineContext = createContext<string>(M.layout.tagline)

export function Layout(props: { preview: string; heading: string; publicUrl: string; children: ReactNode }) {
  const seller = useContext(SellerLineContext)
  const shop = useContext(ShopNameContext)
  const tagline = useContext(TaglineContext)
  return (
    <Html lang="ru" dir="ltr">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
      </Head>
      <Preview>{props.preview}</Preview>
      <Body style={s.body}>
        <Container style={s.container}>
          <Section style={s.band}>
            <Text style={s.brand}>{shop}</Text>
            <Text style={s.tagline}>{tagline}</Text>
          </Section>
          <Section style={s.card}>
            <Heading as="h1" style={s.h1}>
              {props.heading}
            </Heading>
            {props.children}
          </Section>
          <Text style={s.footer}>{fill(M.layout.footer, { shop })}</Text>
          {seller ? <Text style={s.footer}>{seller}</Text> : null}
          <Text style={s.footer}>
            {M.layout.support}{' '}
            <Link href={`${props.publicUrl}/info/contacts`} style={s.link}>
              {`${props.publicUrl}/info/contacts`}
            </Link>
          </Text>
        </Container>
      </Body>
    </Html>
  )
}

export const P = ({ children }: { children: ReactNode }) => <Text style={s.p}>{children}</Text>
export const Muted = ({ children }: { children: ReactNode }) => <Text style={s.muted}>{children}</Text>
export const H2 = ({ children }: { children: ReactNode }) => (
  <Heading as="h2" style={s.h2}>
    {children}
  </Heading>
)

/** The mail's main action, with its address written out for clients that hide buttons. */
export function Action({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '16px 0' }}>
      <Button href={href} className="button" style={s.button}>
        {children}
      </Button>
      <Text className="link-hint" style={s.muted}>
        {M.layout.link_hint}{' '}
        <Link href={href} style={s.link}>
          {href}
        </Link>
      </Text>
    </Section>
  )
}

/** A code to copy: large, monospaced, wrapping on narrow screens. */
export function Code({ children, label }: { children: string; label?: string }) {
  return (
    <Text style={s.code}>
      {label ? <span style={{ ...s.label, fontFamily: font, letterSpacing: 0 }}>{label} </span> : null}
      {children}
    </Text>
  )
}

/** Label/value rows (totals, payment method). */
export function Facts({ rows }: { rows: Array<[string, string]> }) {
  return (
    <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ margin: '8px 0' }}>
      <tbody>
        {rows.map(([label, value], i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once
          <tr key={i}>
            <td style={s.label}>{label}</td>
            <td style={s.value}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
