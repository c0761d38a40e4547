// Back-office writes of a game's FAQ and of the info articles. A new article text is a new
// version; the old ones stay (what a consent was given to, issue 33).
import { eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { articles, faq, games } from '../../../db/schema'
import { refuse, refuseField } from '../../../lib/domain-error'
import { unfilledRequisites } from '../../content/legal-templates'
import { keepArticleVersion } from '../../consent/record'
import { audit } from '../audit'
import { patchAudited } from '../patch'
import type { StaffMember } from '../roles'

type FaqRow = typeof faq.$inferSelect

export const adminFaqOut = (f: FaqRow) => ({
  id: f.id,
  game: f.gameId,
  text: f.text,
  answer: f.answer,
  order: f.order,
})

export async function createFaq(
  db: Db,
  staff: StaffMember,
  gameId: number,
  v: { text: string; answer: string; order?: number },
): Promise<FaqRow> {
  return db.transaction(async (tx) => {
    const [game] = await tx.select({ id: games.id }).from(games).where(eq(games.id, gameId))
    if (!game) throw refuse('not_found')
    const [f] = await tx
      .insert(faq)
      .values({ gameId, text: v.text, answer: v.answer, order: v.order ?? 0 })
      .returning()
    await audit(tx, staff, { action: 'faq.create', entity: 'faq', entityId: f!.id, after: adminFaqOut(f!) })
    return f!
  })
}

export const patchFaq = (
  db: Db,
  staff: StaffMember,
  id: number,
  v: { text?: string; answer?: string; order?: number },
) => db.transaction((tx) => patchAudited<FaqRow>(tx, staff, { table: faq, id: faq.id, entity: 'faq' }, id, v))

export async function deleteFaq(db: Db, staff: StaffMember, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [f] = await tx.delete(faq).where(eq(faq.id, id)).returning()
    if (!f) throw refuse('not_found')
    await audit(tx, staff, { action: 'faq.delete', entity: 'faq', entityId: id, before: adminFaqOut(f) })
  })
}

export async function putArticle(
  db: Db,
  staff: StaffMember,
  slug: string,
  v: { header: string; text: string },
) {
  const unfilled = unfilledRequisites(v.text)
  if (unfilled.length > 0)
    throw refuseField('text', 'article_requisites_unfilled', { fields: unfilled.join(', ') })
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(articles).where(eq(articles.slug, slug)).for('update')
    const [a] = await tx
      .insert(articles)
      .values({ slug, header: v.header, text: v.text })
      .onConflictDoUpdate({ target: articles.slug, set: { header: v.header, text: v.text } })
      .returning()
    await keepArticleVersion(tx, slug)
    await audit(tx, staff, {
      action: before ? 'article.update' : 'article.create',
      entity: 'article',
      entityId: slug,
      before: before ?? null,
      after: a,
    })
    return a!
  })
}
