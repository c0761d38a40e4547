import { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { drizzle } from 'drizzle-orm/pglite'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { isPreparable, withPreparedStatements } from '#api/db/pglite-statements'

// The wrapper must answer exactly what PGlite's own query() answers, only faster: every case
// compares the two on the same database.
let raw: PGlite
let db: ReturnType<typeof withPreparedStatements>

beforeAll(async () => {
  raw = await PGlite.create()
})
afterAll(async () => {
  await raw.close()
})
// a fresh table and a fresh wrapper per case, on one backend (as wrappers never share names)
beforeEach(async () => {
  await raw.exec(`
    drop table if exists items;
    create table items (
      id serial primary key, name text not null unique, qty int, price numeric(12,2),
      on_sale boolean not null default true, meta jsonb, created timestamptz not null default now()
    );
    insert into items (name, qty, price, meta) values ('uc-60', 5, 75.50, '{"a":[1,2]}'), ('uc-325', null, 390, null);
  `)
  db = withPreparedStatements(raw)
})

const readAll = 'select id, name, qty, price, on_sale, meta, created from items where id >= $1 order by id'

describe('withPreparedStatements', () => {
  it('answers reads exactly as PGlite does, rows as objects and as arrays, nulls and every type', async () => {
    for (const options of [undefined, { rowMode: 'array' as const }]) {
      const mine = await db.query(readAll, [1], options)
      const theirs = await raw.query(readAll, [1], options)
      expect(mine.rows).toEqual(theirs.rows)
      expect(mine.fields).toEqual(theirs.fields)
      expect(mine.rows).toHaveLength(2)
    }
    const [first] = (await db.query<{ meta: unknown; on_sale: boolean; qty: number }>(readAll, [1])).rows
    expect(first).toMatchObject({ meta: { a: [1, 2] }, on_sale: true, qty: 5 })
  })

  it('prepares a text once and then only binds it', async () => {
    for (let id = 1; id <= 5; id++) await db.query(readAll, [id])
    await db.query('select name from items where name = $1', ['uc-60'])
    expect(db.preparedStats()).toEqual({ statements: 2, prepares: 2, executions: 6 })
  })

  it('serialises parameters by their described types (jsonb, boolean, timestamptz, numeric)', async () => {
    const when = new Date('2026-01-02T03:04:05.678Z')
    const inserted = await db.query<{ id: number; meta: unknown; created: Date; price: string }>(
      'insert into items (name, qty, price, on_sale, meta, created) values ($1, $2, $3, $4, $5, $6) returning id, meta, created, price, on_sale',
      ['gold', 3, '12.30', false, { b: 'ж' }, when],
    )
    expect(inserted.affectedRows).toBe(1)
    expect(inserted.rows[0]).toMatchObject({ meta: { b: 'ж' }, price: '12.30', on_sale: false })
    expect(inserted.rows[0]!.created.getTime()).toBe(when.getTime())
    const back = await raw.query('select meta, on_sale from items where name = $1', ['gold'])
    expect(back.rows).toEqual([{ meta: { b: 'ж' }, on_sale: false }])
  })

  it('counts the rows an update or delete touched, as PGlite does', async () => {
    const updated = await db.query('update items set qty = coalesce(qty, 0) + $1 where id > $2', [1, 0])
    expect(updated.affectedRows).toBe(2)
    const deleted = await db.query('delete from items where name = $1', ['nothing'])
    expect(deleted.affectedRows).toBe(0)
    expect(deleted.rows).toEqual([])
  })

  it('fails with PostgreSQL’s error and its code, and the statement keeps working after it', async () => {
    const insert = 'insert into items (name) values ($1)'
    const err = await db.query(insert, ['uc-60']).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: '23505', query: insert })
    await db.query(insert, ['uc-1800'])
    expect((await raw.query('select count(*)::int as n from items')).rows).toEqual([{ n: 3 }])
  })

  it('keeps no statement that failed to parse', async () => {
    await expect(db.query('select nope from items where id = $1', [1])).rejects.toMatchObject({
      code: '42703',
    })
    expect(db.preparedStats().statements).toBe(0)
    expect((await db.query('select name from items where id = $1', [1])).rows).toEqual([{ name: 'uc-60' }])
  })

  it('runs a transaction’s statements inside it: committed together, rolled back together', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into items (name) values ($1)', ['in-tx'])
      const seen = await tx.query('select count(*)::int as n from items where name = $1', ['in-tx'])
      expect(seen.rows).toEqual([{ n: 1 }])
    })
    const failed = db.transaction(async (tx) => {
      await tx.query('insert into items (name) values ($1)', ['rolled-back'])
      await tx.query('insert into items (name) values ($1)', ['uc-60']) // unique violation
    })
    await expect(failed).rejects.toMatchObject({ code: '23505' })
    const names = await db.query<{ name: string }>('select name from items where id > $1 order by id', [2])
    expect(names.rows.map((r) => r.name)).toEqual(['in-tx'])
  })

  it('never runs a statement inside another caller’s open transaction', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    const tx = db.transaction(async (t) => {
      await t.query('insert into items (name) values ($1)', ['pending'])
      await held
      await t.rollback()
    })
    await new Promise((r) => setTimeout(r, 20))
    const outside = db.query<{ n: number }>('select count(*)::int as n from items where name = $1', [
      'pending',
    ])
    let answered = false
    void outside.then(() => {
      answered = true
    })
    await new Promise((r) => setTimeout(r, 50))
    expect(answered).toBe(false) // waits for the transaction, not a read in the middle of it
    release()
    await tx
    expect((await outside).rows).toEqual([{ n: 0 }])
  })

  it('describes a statement again when its table changed columns', async () => {
    const star = 'select * from items where id = $1'
    expect(Object.keys((await db.query(star, [1])).rows[0] as object)).not.toContain('note')
    await raw.exec('alter table items add column note text') // behind the wrapper's back
    expect(Object.keys((await db.query(star, [1])).rows[0] as object)).toContain('note')
    // inside a transaction the refusal has aborted it: the caller gets the error, the next call works
    await raw.exec('alter table items add column extra int')
    await expect(db.transaction((tx) => tx.query(star, [1]))).rejects.toMatchObject({ code: '0A000' })
    expect(Object.keys((await db.query(star, [1])).rows[0] as object)).toContain('extra')
  })

  it('closes the least recently used statement beyond the cap, answers unchanged', async () => {
    const count = async () =>
      (await raw.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]!.n
    const before = await count()
    const capped = withPreparedStatements(raw, { maxStatements: 1 })
    await capped.query('select name from items where id = $1', [1])
    const other = await capped.query<{ qty: number | null }>('select qty from items where id = $1', [2])
    expect(other.rows).toEqual([{ qty: null }])
    const again = await capped.query('select name from items where id = $1', [1])
    expect(again.rows).toEqual([{ name: 'uc-60' }])
    expect(capped.preparedStats()).toEqual({ statements: 1, prepares: 3, executions: 3 })
    expect(await count()).toBe(before + 1) // the evicted ones were closed in the backend too
  })

  it('forgets its statements after DDL: a column that changed type takes the new type', async () => {
    const byQty = 'select name from items where qty = $1'
    expect((await db.query(byQty, [5])).rows).toEqual([{ name: 'uc-60' }])
    await db.query('alter table items alter column qty type text')
    expect(db.preparedStats().statements).toBe(0)
    expect((await db.query(byQty, ['5'])).rows).toEqual([{ name: 'uc-60' }])
    await db.exec('alter table items alter column qty type int using qty::int')
    expect((await db.query(byQty, [5])).rows).toEqual([{ name: 'uc-60' }])
  })

  it('keeps its statements across savepoints and SET, which are not DDL', async () => {
    const byId = 'select name from items where id = $1'
    await db.transaction(async (tx) => {
      await tx.query(byId, [1])
      await tx.query('savepoint sp1')
      await tx.query('set local statement_timeout = 5000')
      await tx.query('release savepoint sp1')
      expect((await tx.query(byId, [2])).rows).toEqual([{ name: 'uc-325' }])
    })
    expect(db.preparedStats()).toMatchObject({ statements: 1, prepares: 1 })
    await db.exec('select 1; create index items_name_qty on items (name, qty)')
    expect(db.preparedStats().statements).toBe(0)
  })

  it('recovers when the backend dropped its statements behind its back (DEALLOCATE ALL)', async () => {
    const byId = 'select name from items where id = $1'
    await db.query(byId, [1])
    await raw.query('deallocate all')
    expect((await db.query(byId, [2])).rows).toEqual([{ name: 'uc-325' }])
  })

  it('honours per-query parsers and serializers as PGlite does, and its getters', async () => {
    const upper = { parsers: { 25: (v: string) => v.toUpperCase() } }
    const lower = { parsers: { 25: (v: string) => `low:${v}` } }
    const byId = 'select name from items where id = $1'
    expect((await db.query(byId, [1], upper)).rows).toEqual([{ name: 'UC-60' }])
    expect((await db.query(byId, [1], lower)).rows).toEqual([{ name: 'low:uc-60' }])
    const tagged = { serializers: { 25: (v: unknown) => `tag-${v}` } }
    await db.query('insert into items (name) values ($1)', ['x'], tagged)
    expect((await raw.query(byId, [3])).rows).toEqual([{ name: 'tag-x' }])
    const insert = 'insert into items (name) values ($1) returning id'
    expect((await db.query(insert, ['y'])).command).toBe((await raw.query(insert, ['z'])).command)
    expect(db.closed).toBe(false)
    expect(db.ready).toBe(true)
  })

  it('passes anything but DML through to PGlite', async () => {
    expect(isPreparable('  SELECT 1')).toBe(true)
    expect(isPreparable('with x as (select 1) select * from x')).toBe(true)
    expect(isPreparable('create index on items (qty)')).toBe(false)
    expect(isPreparable('set local statement_timeout = 1')).toBe(false)
    expect(isPreparable('select 1', { paramTypes: [23] })).toBe(false)
    await db.query('select name from items where id = $1', [1])
    expect(db.preparedStats().statements).toBe(1)
    await db.query('create index items_qty on items (qty)')
    expect(db.preparedStats().statements).toBe(0)
  })

  it('serves drizzle: typed rows, its timestamp handling and its transactions', async () => {
    const items = pgTable('items', {
      id: integer('id').primaryKey(),
      name: text('name').notNull(),
      meta: jsonb('meta'),
      created: timestamp('created', { withTimezone: true }).notNull(),
    })
    const orm = drizzle(db)
    const [row] = await orm.select().from(items).where(eq(items.name, 'uc-60'))
    expect(row!.created).toBeInstanceOf(Date)
    expect(row!.meta).toEqual({ a: [1, 2] })
    await orm.transaction(async (tx) => {
      await tx
        .update(items)
        .set({ meta: { c: 1 } })
        .where(eq(items.id, row!.id))
    })
    const [again] = await orm
      .select({ meta: items.meta, n: sql<number>`${items.id} + 1` })
      .from(items)
      .where(eq(items.id, row!.id))
    expect(again).toEqual({ meta: { c: 1 }, n: row!.id + 1 })
    const ormRaw = drizzle(raw)
    expect(await ormRaw.select().from(items).where(eq(items.name, 'uc-60'))).toEqual(
      await orm.select().from(items).where(eq(items.name, 'uc-60')),
    )
  })
})
