// emailKey (./email-key.ts) in SQL, for rules that count a buyer's orders in the database (risk
// rules, stock holds, Standoff listing claims): the same steps on a column, so a stored address
// and a typed one compare alike. Kept beside the TypeScript version on purpose;
// tests/api/third-audit.test.ts checks both give the same keys on both databases.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm'
import { GMAIL, YANDEX } from './email-key'

const inList = (values: Iterable<string>) =>
  sql.join(
    [...values].map((v) => sql`${v}`),
    sql`, `,
  )

/** The email key of a column's value (lower(trim()), +tag dropped, Gmail and Yandex folded). */
export function emailKeySql(column: SQL | AnyColumn): SQL<string> {
  const e = sql`lower(trim(${column}))`
  const local0 = sql`split_part(${e}, '@', 1)`
  const domain = sql`split_part(${e}, '@', 2)`
  const local = sql`(case when strpos(${local0}, '+') > 1 then substr(${local0}, 1, strpos(${local0}, '+') - 1) else ${local0} end)`
  return sql<string>`(case
    when strpos(${e}, '@') < 2 then ${e}
    when ${domain} in (${inList(GMAIL)}) then coalesce(nullif(replace(${local}, '.', ''), ''), ${local}) || '@gmail.com'
    when ${domain} in (${inList(YANDEX)}) then replace(${local}, '.', '-') || '@yandex.ru'
    else ${local} || '@' || ${domain} end)`
}
