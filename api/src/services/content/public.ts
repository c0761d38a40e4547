// The public content reads (routes/content.ts): an article by its slug, the seeded contacts row,
// a game's FAQ. Each returns null for what is not there; the route answers 404.
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { articles, contacts, faq, games } from '../../db/schema'

export async function findArticle(db: Db, slug: string) {
  const [row] = await db.select().from(articles).where(eq(articles.slug, slug)).limit(1)
  return row ?? null
}

/** The seeded contacts row, shown until the owner saves requisites with an INN. */
export async function firstContacts(db: Db) {
  const [row] = await db.select().from(contacts).orderBy(asc(contacts.id)).limit(1)
  return row ?? null
}

/** The FAQ of active game `gameId` in its order, or null if there is no such active game. */
export async function activeGameFaq(db: Db, gameId: number) {
  const [game] = await db
    .select({ id: games.id })
    .from(games)
    .where(and(eq(games.id, gameId), eq(games.isActive, true)))
    .limit(1)
  if (!game) return null
  return db.select().from(faq).where(eq(faq.gameId, game.id)).orderBy(asc(faq.order), asc(faq.id))
}
