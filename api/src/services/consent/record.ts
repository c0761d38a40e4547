// Consent to personal data processing (152-ФЗ): each one recorded with who (email or account),
// where it was asked, when, from which address and browser. A client of the spec that does not send
// the consent field still creates orders; its orders are recorded as "no consent given".
import { desc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { articles, articleVersions, consents } from '../../db/schema'

/** The info article that is the consent document (/info/consent). */
const CONSENT_SLUG = 'consent'

/**
 * Keeps the article's text as a new version when it differs from its newest one (and as version 1
 * for an article written before versions were kept); the version now shown, null when there is no
 * such article.
 */
export async function keepArticleVersion(db: Db | Tx, slug: string): Promise<number | null> {
  const [article] = await db.select().from(articles).where(eq(articles.slug, slug))
  if (!article) return null
  const [last] = await db
    .select()
    .from(articleVersions)
    .where(eq(articleVersions.slug, slug))
    .orderBy(desc(articleVersions.version))
    .limit(1)
  if (last && last.header === article.header && last.text === article.text) return last.version
  const version = (last?.version ?? 0) + 1
  // two writers at once: the primary key keeps one row per version, either one is the same text
  await db
    .insert(articleVersions)
    .values({ slug, version, header: article.header, text: article.text })
    .onConflictDoNothing()
  return version
}

export async function recordConsent(
  db: Db | Tx,
  c: {
    context: 'order' | 'sign_up' | 'gift'
    given: boolean
    email: string | null
    userId: number | null
    orderId?: string | null
    ip: string | null
    userAgent: string | null
    documentVersion?: number | null
  },
): Promise<void> {
  await db.insert(consents).values({
    context: c.context,
    given: c.given,
    email: c.email,
    userId: c.userId,
    orderId: c.orderId ?? null,
    ip: c.ip,
    userAgent: c.userAgent?.slice(0, 500) ?? null,
    documentVersion: c.documentVersion ?? (c.given ? await keepArticleVersion(db, CONSENT_SLUG) : null),
  })
}
