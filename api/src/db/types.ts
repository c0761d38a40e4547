// The database handle's types, in a leaf module: services, jobs and the demo seeder import these
// without loading the client (drivers, pools, migrations).
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
