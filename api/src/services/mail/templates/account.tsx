// Mails of the account (issue 13) and of the guest order look-up: a link to follow, or a notice.
import { linkToken } from '../../auth/account-tokens'
import { fill, M } from '../messages'
import { signLookupToken } from '../lookup-token'
import { findOrdersByEmail } from '../lookup'
import { Action, Layout, Muted, P } from './layout'
import type { RenderContext, Template } from './types'

/** A storefront path as a public link; anything but a local path is refused (no foreign links). */
function link(ctx: RenderContext, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || /[\s\\]/.test(path))
    throw new Error('mail link must be a path of the shop')
  return `${ctx.config.publicUrl}${path}`
}

/** The path of an account link, with its signed token when the mail names a token row. */
function accountLink(ctx: RenderContext, data: { path: string; tokenId?: string }): string {
  if (!data.tokenId) return link(ctx, data.path)
  const sep = data.path.includes('?') ? '&' : '?'
  return link(ctx, `${data.path}${sep}token=${linkToken(ctx.config.jwtSecret, data.tokenId)}`)
}

export const confirmEmail: Template<'confirm_email'> = async (data, ctx) => ({
  subject: M.confirm_email.subject,
  body: (
    <Layout
      preview={M.confirm_email.preview}
      heading={M.confirm_email.heading}
      publicUrl={ctx.config.publicUrl}
    >
      <P>{fill(M.confirm_email.intro, { shop: ctx.shop ?? M.shop })}</P>
      <Action href={accountLink(ctx, data)}>{M.confirm_email.button}</Action>
      <Muted>{fill(M.confirm_email.expires, { hours: data.expiresInHours })}</Muted>
      <Muted>{M.confirm_email.ignore}</Muted>
    </Layout>
  ),
})

export const passwordReset: Template<'password_reset'> = async (data, ctx) => ({
  subject: M.password_reset.subject,
  body: (
    <Layout
      preview={M.password_reset.preview}
      heading={M.password_reset.heading}
      publicUrl={ctx.config.publicUrl}
    >
      <P>{fill(M.password_reset.intro, { shop: ctx.shop ?? M.shop })}</P>
      <Action href={accountLink(ctx, data)}>{M.password_reset.button}</Action>
      <Muted>{fill(M.password_reset.expires, { minutes: data.expiresInMinutes })}</Muted>
      <Muted>{M.password_reset.ignore}</Muted>
    </Layout>
  ),
})

export const passwordChanged: Template<'password_changed'> = async (_data, ctx) => ({
  subject: M.password_changed.subject,
  body: (
    <Layout
      preview={M.password_changed.preview}
      heading={M.password_changed.heading}
      publicUrl={ctx.config.publicUrl}
    >
      <P>{fill(M.password_changed.intro, { shop: ctx.shop ?? M.shop })}</P>
      <P>{M.password_changed.warning}</P>
    </Layout>
  ),
})

export const socialBound: Template<'social_bound'> = async (data, ctx) => {
  const provider = M.providers[data.provider] ?? data.provider
  return {
    subject: fill(M.social_bound.subject, { provider }),
    body: (
      <Layout
        preview={fill(M.social_bound.preview, { provider })}
        heading={M.social_bound.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.social_bound.intro, { shop: ctx.shop ?? M.shop, provider })}</P>
        <P>{M.social_bound.warning}</P>
      </Layout>
    ),
  }
}

/**
 * The guest's list link. Sent only when the address has orders: the request answered the same
 * either way, and an address without orders gets no mail (the shop mails nobody on a stranger's say).
 */
export const orderLookup: Template<'order_lookup'> = async (_data, ctx) => {
  const found = await findOrdersByEmail(ctx.db, ctx.to, 1)
  if (found.length === 0) return null
  const token = await signLookupToken(ctx.config.jwtSecret, ctx.to, ctx.now)
  return {
    subject: fill(M.order_lookup.subject, { shop: ctx.shop ?? M.shop }),
    body: (
      <Layout
        preview={M.order_lookup.preview}
        heading={M.order_lookup.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{M.order_lookup.intro}</P>
        <Action href={link(ctx, `/orders/lookup/${token}`)}>{M.order_lookup.button}</Action>
        <Muted>{M.order_lookup.expires}</Muted>
        <Muted>{M.order_lookup.ignore}</Muted>
      </Layout>
    ),
  }
}
