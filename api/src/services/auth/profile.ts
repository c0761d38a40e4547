import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { preparedPerDb } from '../../db/prepared'
import { promoCodes, socialAccounts, users } from '../../db/schema'
import { SOCIAL_PROVIDERS } from '../../env'
import { toMoney } from '../../lib/money'
import type { CleanImage } from '../uploads/images'
import { deleteUploadOf, replaceUpload } from '../uploads/store'
import type { UserRow } from './accounts'
import { liveBearer } from './sessions'

/** The §3 profile (its wire schema: ProfileSchema, api/src/routes/schemas/profile.ts). */
export interface Profile {
  id: number
  email: string | null
  email_confirmed: boolean
  nickname: string
  avatar_img: string | null
  balance: string
  active_promo_code: string | null
  social_accounts: Array<(typeof SOCIAL_PROVIDERS)[number]>
}

const boundProvidersQuery = preparedPerDb((db) =>
  db
    .select({ provider: socialAccounts.provider })
    .from(socialAccounts)
    .where(eq(socialAccounts.userId, sql.placeholder('userId')))
    .orderBy(asc(socialAccounts.provider))
    .prepare('bound_providers'),
)

export const avatarUrl = (name: string | null) => (name ? `/media/${name}` : null)

/** The §3 profile plus the bound social providers. */
export async function profileOf(db: Db, user: UserRow): Promise<Profile> {
  const [social, promo] = await Promise.all([
    boundProvidersQuery(db).execute({ userId: user.id }),
    user.activePromoCodeId
      ? db.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.id, user.activePromoCodeId))
      : Promise.resolve([]),
  ])
  return {
    id: user.id,
    email: user.email,
    email_confirmed: Boolean(user.email && user.emailConfirmedAt),
    nickname: user.nickname,
    avatar_img: avatarUrl(user.avatarImg),
    // a negative balance is never shown or spent
    balance: toMoney(Math.max(0, user.balance)),
    active_promo_code: promo[0]?.code ?? null,
    social_accounts: social
      .map((s) => s.provider)
      .filter((p): p is Profile['social_accounts'][number] =>
        (SOCIAL_PROVIDERS as readonly string[]).includes(p),
      ),
  }
}

/**
 * GET /api/auth/profile/'s answer for an access token, or null where it answers 401: for the
 * storefront's own read in this process (the personal fill, server/personal-fill.ts), without the
 * Request, the middleware and the JSON round trip that cost more than the reads (issue 36).
 */
export async function profileOfBearer(db: Db, jwtSecret: string, token: string): Promise<Profile | null> {
  const bearer = await liveBearer(db, jwtSecret, token)
  return bearer ? profileOf(db, bearer.user) : null
}

/** What a profile form changes: undefined leaves a field as it is; a null avatar removes it. */
export interface ProfileChange {
  nickname?: string
  avatar?: CleanImage | null
}

/**
 * Saves the nickname and the avatar (stored as an upload of the account, the previous one
 * replaced) of `user`; the account as saved (null if it is gone).
 */
export async function changeProfile(db: Db, user: UserRow, change: ProfileChange): Promise<UserRow | null> {
  const patch: Partial<typeof users.$inferInsert> = {}
  if (change.nickname !== undefined) patch.nickname = change.nickname
  const { avatar } = change
  return db.transaction(async (tx) => {
    if (avatar) patch.avatarImg = await replaceUpload(tx, { userId: user.id }, avatar)
    else if (avatar === null) {
      await deleteUploadOf(tx, { userId: user.id })
      patch.avatarImg = null
    }
    const [row] = await tx.update(users).set(patch).where(eq(users.id, user.id)).returning()
    return row ?? null
  })
}

/** Saves the nickname of `user`; the account as saved (null if it is gone). */
export async function changeNickname(db: Db, user: UserRow, nickname: string): Promise<UserRow | null> {
  const [row] = await db.update(users).set({ nickname }).where(eq(users.id, user.id)).returning()
  return row ?? null
}
