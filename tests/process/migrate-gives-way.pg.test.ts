// An upgrade migrates while the previous release keeps selling (docs/upgrading.md). A migration
// holds every table it alters until it ends, so a buyer's transaction that read one of them and then
// needs another the migration already holds closes a cycle with it, and PostgreSQL cancels one of
// the two (a buyer's order answered 500 once so in tests/process/upgrade.pg.test.ts). The migration
// gives way instead (api/src/db/client.ts migrateYielding): it waits a moment for a lock a running
// transaction holds, then rolls back, lets it finish and tries again.
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#api/db/client'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'

const dbs: PgTestDatabase[] = []
afterAll(async () => {
  for (const d of dbs) await d.drop()
})

describe('a migration gives way to the running shop', () => {
  it('a buyer’s transaction that needs a table the migration holds goes on; the migration finishes after it', async () => {
    const target = await createPgDatabase('shop_gives_way')
    dbs.push(target)
    const first = await openDatabase({ url: target.url })
    await first.close()
    // the two newest migrations undone: left to apply, they alter uploads, then shop_settings
    const admin = new pg.Client({ connectionString: target.url })
    await admin.connect()
    await admin.query(`
      ALTER TABLE shop_settings DROP COLUMN support_hours, DROP COLUMN tagline;
      ALTER TABLE uploads DROP CONSTRAINT uploads_one_owner, DROP CONSTRAINT uploads_shop_true;
      DROP INDEX uploads_shop_uq;
      ALTER TABLE uploads DROP COLUMN shop;
      ALTER TABLE uploads ADD CONSTRAINT uploads_one_owner
        CHECK (num_nonnulls(order_id, user_id, game_id, gift_id, payment_method_id) = 1);
      DELETE FROM drizzle.__drizzle_migrations
        WHERE id IN (SELECT id FROM drizzle.__drizzle_migrations ORDER BY id DESC LIMIT 2);
    `)
    // a buyer's transaction of the running release has read shop_settings and is still open
    const buyer = new pg.Client({ connectionString: target.url })
    await buyer.connect()
    await buyer.query('BEGIN')
    await buyer.query('SELECT count(*) FROM shop_settings')
    try {
      const migrating = openDatabase({ url: target.url })
      const failed = migrating.then(
        () => null,
        (err: unknown) => err,
      )
      // the migration has taken uploads and waits for shop_settings; now the buyer needs uploads
      await new Promise((r) => setTimeout(r, 400))
      const started = Date.now()
      await buyer.query('SELECT count(*) FROM uploads')
      // the buyer waited no longer than the migration's moment of waiting, and was not canceled
      expect(Date.now() - started).toBeLessThan(1000)
      await buyer.query('COMMIT')
      expect(await failed).toBeNull()
      await (await migrating).close()
    } finally {
      await buyer.end()
    }
    const { rows } = await admin.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'shop_settings' AND column_name IN ('tagline', 'support_hours')",
    )
    await admin.end()
    expect(rows).toHaveLength(2)
  })
})
