// Server-side prepared statements for embedded PGlite.
//
// PGlite's `query()` sends every statement as Parse, Describe, Bind, Describe, Execute and Sync, six
// trips into the WebAssembly backend, so PostgreSQL parses and plans the same text on every call
// (planning cost as much as executing our short order statements), and its result parser copies the
// whole type-parser table on each query because drizzle passes its own parsers. This wrapper gives
// each distinct DML text a named statement, described once: later calls send Bind, Execute and Sync
// in one trip, PostgreSQL reuses the statement (and, after a few runs, its generic plan), and rows
// are parsed without copying the parser table. Results have the shape PGlite's `query()` gives.
//
// Anything else (DDL, SET, savepoints, statements with a blob or explicit parameter types) goes
// through PGlite unchanged; DDL also forgets the kept statements (a changed table may change their
// parameter types).
// The wrapper takes PGlite's own locks, so it never runs inside another caller's transaction.
import { randomBytes } from 'node:crypto'
import {
  type PGlite,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types,
} from '@electric-sql/pglite'

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number]
type Field = { name: string; dataTypeID: number }
type Parser = (value: string, typeId: number) => unknown

interface Statement {
  name: string
  paramTypes: number[]
  fields: Field[]
}

const { serialize } = protocol
/** Named statements kept at most; the least recently used is closed to make room. */
const DEFAULT_MAX_STATEMENTS = 500
const DML = /^\s*(select|insert|update|delete|with)\b/i
/** Text (one statement or several) after which a kept statement's types may no longer hold. */
const RESHAPES = /(?:^|;)\s*(alter|drop|create|discard|deallocate)\b/i
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'])

/** True when `sql` is a statement this wrapper prepares and keeps. */
export function isPreparable(sql: string, options?: QueryOptions): boolean {
  if (options?.blob || options?.paramTypes || options?.onNotice) return false
  return DML.test(sql)
}

export interface PreparedStats {
  statements: number
  prepares: number
  executions: number
}

/** A kept statement the backend no longer accepts as it was described: describe it afresh. */
function isStale(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: string; message?: string }
  // 26000: gone (a DEALLOCATE or DISCARD ALL); 0A000 with this message: a table changed columns
  return (
    code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(message ?? ''))
  )
}

/**
 * `client`, with `query()` (and a transaction's `query()`) running DML as named prepared
 * statements. Everything else is PGlite's own.
 */
export function withPreparedStatements(
  client: PGlite,
  opts: { maxStatements?: number } = {},
): PGlite & { preparedStats(): PreparedStats } {
  const max = Math.max(1, opts.maxStatements ?? DEFAULT_MAX_STATEMENTS)
  /** By text, least recently used first. */
  const statements = new Map<string, Statement>()
  /** Names to close in the next trip (evicted or forgotten statements). */
  let toClose: string[] = []
  const stats = { prepares: 0, executions: 0 }
  // random, so two wrappers (or two copies of this module) on one backend never share a name
  const prefix = `pgls_${randomBytes(4).toString('hex')}_`
  let lastName = 0

  const exec = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false })

  /** Close messages for the statements waiting to be closed (sent ahead of the next statement). */
  const closing = () => {
    const names = toClose
    toClose = []
    return names.map((name) => serialize.close({ type: 'S', name }))
  }

  /**
   * Forgets every kept statement when `sql` may change what they were described as (DDL); a
   * savepoint or SET, which payments and status moves run all the time, keeps them.
   */
  const forgetAllAfter = (sql: string) => {
    if (!RESHAPES.test(sql)) return
    for (const s of statements.values()) toClose.push(s.name)
    statements.clear()
  }

  /** The kept statement for `sql`, parsed and described the first time. */
  async function statementFor(sql: string): Promise<Statement> {
    const known = statements.get(sql)
    if (known) {
      statements.delete(sql) // to the most recently used end
      statements.set(sql, known)
      return known
    }
    if (statements.size >= max) {
      const [oldestText, oldest] = statements.entries().next().value!
      statements.delete(oldestText)
      toClose.push(oldest.name)
    }
    const name = `${prefix}${++lastName}`
    const messages = await exec(
      concat(
        ...closing(),
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ),
    )
    const statement = { name, ...described(messages) }
    statements.set(sql, statement)
    stats.prepares++
    return statement
  }

  async function run(
    sql: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results> {
    try {
      return await runOnce(sql, params, options)
    } catch (err) {
      const kept = statements.get(sql)
      if (!kept || !isStale(err)) throw err
      statements.delete(sql)
      toClose.push(kept.name)
      // inside a transaction the failure has aborted it: the caller sees the error; the next call
      // describes the statement afresh
      if (inTransaction) throw err
      return runOnce(sql, params, options)
    }
  }

  async function runOnce(sql: string, params: unknown[], options?: QueryOptions): Promise<Results> {
    const statement = await statementFor(sql)
    const messages = await exec(
      concat(
        serialize.bind({
          statement: statement.name,
          values: serializeParams(statement.paramTypes, params, options),
        }),
        serialize.execute({}),
        serialize.sync(),
      ),
    )
    stats.executions++
    return results(messages, statement.fields, client.parsers as Record<number, Parser>, options)
  }

  function serializeParams(types: number[], params: unknown[], options?: QueryOptions): Array<string | null> {
    return params.map((value, i) => {
      if (value === null || value === undefined) return null
      const type = types[i]!
      const serializer = options?.serializers?.[type] ?? client.serializers[type]
      return serializer ? serializer(value) : String(value)
    })
  }

  /** PGlite's error carries the statement, as its own query() does. */
  const withQuery = (err: unknown, sql: string, params: unknown[], options?: QueryOptions) => {
    if (err && typeof err === 'object' && 'code' in err) {
      Object.assign(err, { query: sql, params, queryOptions: options })
    }
    return err
  }

  async function query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (!isPreparable(sql, options)) {
      forgetAllAfter(sql)
      return client.query<T>(sql, params, options)
    }
    await client._checkReady()
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          const result = await run(sql, params, options, false)
          await client.syncToFs()
          return result as Results<T>
        } catch (err) {
          throw withQuery(err, sql, params, options)
        }
      }),
    )
  }

  async function transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return client.transaction((tx) => {
      const wrapped: Transaction = Object.create(tx, {
        query: {
          value: async <R>(sql: string, params: unknown[] = [], options?: QueryOptions) => {
            if (!isPreparable(sql, options) || tx.closed) {
              forgetAllAfter(sql)
              return tx.query<R>(sql, params, options)
            }
            // the transaction's lock is already held; take the query lock as PGlite's tx.query does
            return client._runExclusiveQuery(async () => {
              try {
                return (await run(sql, params, options, true)) as Results<R>
              } catch (err) {
                throw withQuery(err, sql, params, options)
              }
            })
          },
        },
        exec: {
          value: (sql: string, options?: QueryOptions) => {
            forgetAllAfter(sql)
            return tx.exec(sql, options)
          },
        },
      })
      return fn(wrapped)
    })
  }

  const execAll = (sql: string, options?: QueryOptions) => {
    forgetAllAfter(sql)
    return client.exec(sql, options)
  }
  const preparedStats = (): PreparedStats => ({ statements: statements.size, ...stats })

  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') return query
      if (prop === 'transaction') return transaction
      if (prop === 'exec') return execAll
      if (prop === 'preparedStats') return preparedStats
      // the target as `this`: PGlite's getters read private fields a proxy does not have
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  }) as PGlite & { preparedStats(): PreparedStats }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts)
}

function described(messages: BackendMessage[]): { paramTypes: number[]; fields: Field[] } {
  let paramTypes: number[] = []
  let fields: Field[] = []
  for (const m of messages) {
    if (m.name === 'parameterDescription')
      paramTypes = (m as unknown as { dataTypeIDs: number[] }).dataTypeIDs
    else if (m.name === 'rowDescription') {
      fields = (m as unknown as { fields: Field[] }).fields.map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
      }))
    }
  }
  return { paramTypes, fields }
}

/**
 * The rows and counts of one executed statement, as PGlite's `query()` returns them: a value is
 * parsed by the query's own parser for its type, else the client's, else PGlite's default.
 */
function results(
  messages: BackendMessage[],
  fields: Field[],
  clientParsers: Record<number, Parser>,
  options?: QueryOptions,
): Results {
  const own = options?.parsers as Record<number, Parser> | undefined
  const defaults = types.parsers as Record<number, Parser>
  const rows: unknown[] = []
  let affectedRows = 0
  let rowCount: number | undefined
  let command: string | undefined
  const parse = (raw: string | null, i: number) => {
    if (raw === null) return null
    const typeId = fields[i]!.dataTypeID
    const parser = own?.[typeId] ?? clientParsers[typeId] ?? defaults[typeId]
    return parser ? parser(raw, typeId) : raw
  }
  for (const m of messages) {
    if (m.name === 'dataRow') {
      const values = (m as unknown as { fields: Array<string | null> }).fields
      if (options?.rowMode === 'array') rows.push(values.map(parse))
      else {
        const row: Record<string, unknown> = {}
        for (let i = 0; i < values.length; i++) row[fields[i]!.name] = parse(values[i]!, i)
        rows.push(row)
      }
    } else if (m.name === 'commandComplete') {
      const words = (m as unknown as { text: string }).text.split(' ')
      const n = Number.parseInt(words[words.length - 1]!, 10)
      command = words[0]
      if (COUNTED.has(command!)) affectedRows += n
      if (!Number.isNaN(n)) rowCount = n
    }
  }
  return {
    rows,
    fields,
    command,
    affectedRows,
    ...(rowCount === undefined ? {} : { rowCount }),
  } as Results
}
