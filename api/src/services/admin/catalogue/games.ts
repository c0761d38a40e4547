// Back-office writes of games: a new game is delivered by a person unless the owner says otherwise
// (decision 042); sandbox delivery only where sandbox payments are on.
import type { Db } from '../../../db/client'
import { games } from '../../../db/schema'
import type { ApiConfig } from '../../../env'
import { checkSupplier, type Supplier } from '../../delivery/suppliers'
import { audit } from '../audit'
import { patchAudited } from '../patch'
import type { StaffMember } from '../roles'
import { adminGameOut } from './views'

/** The kinds of game (the back-office's form offers them). */
export { GAME_KINDS } from '../../../db/schema'

type GameRow = typeof games.$inferSelect
export type GameValues = Partial<Omit<typeof games.$inferInsert, 'id' | 'supplier'>> & {
  supplier?: Supplier
}

export async function createGame(
  db: Db,
  staff: StaffMember,
  config: Pick<ApiConfig, 'sandboxPayments'>,
  v: GameValues & Pick<typeof games.$inferInsert, 'kind' | 'title'>,
): Promise<GameRow> {
  checkSupplier(v.supplier, config)
  return db.transaction(async (tx) => {
    const [g] = await tx
      .insert(games)
      .values({
        supplier: 'manual',
        deliveryMinutes: 30,
        detailTitle: v.title,
        detailDescription: '',
        logo: '',
        isActive: false,
        isAuthRequired: false,
        discountPercent: 0,
        productPreviewName: '',
        tags: [],
        sortOrder: 0,
        ...definedOnly(v),
        kind: v.kind,
        title: v.title,
      })
      .returning()
    await audit(tx, staff, {
      action: 'game.create',
      entity: 'game',
      entityId: g!.id,
      after: adminGameOut(g!),
    })
    return g!
  })
}

export async function patchGame(
  db: Db,
  staff: StaffMember,
  config: Pick<ApiConfig, 'sandboxPayments'>,
  id: number,
  v: GameValues,
): Promise<GameRow> {
  checkSupplier(v.supplier, config)
  return db.transaction((tx) =>
    patchAudited<GameRow>(
      tx,
      staff,
      { table: games, id: games.id, entity: 'game' },
      id,
      v as Partial<GameRow>,
    ),
  )
}

/** The fields given: an absent one keeps its default. */
export function definedOnly<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as Partial<T>
}
