import type { Db } from './client'

/**
 * A query prepared once per database (its SQL built once, not on every call), for the few reads
 * every signed-in request makes (issue 36). `build` gets the database and calls `.prepare(name)`.
 */
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const prepared = new WeakMap<Db, Q>()
  return (db) => {
    let query = prepared.get(db)
    if (!query) {
      query = build(db)
      prepared.set(db, query)
    }
    return query
  }
}
