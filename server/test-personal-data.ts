// Test support for destruction: where in the whole database a piece of personal data still is.
// Every text column of every table is searched — tables added later are searched too, without
// anyone remembering to list them here.
import { sql, type Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import { dialectOf } from './db/dialect-sql.ts';

/** Every text column of the database: SQLite's declared TEXT (or untyped) columns, PostgreSQL's character types of the current schema. */
async function textColumns(db: Kysely<Database>): Promise<Array<{ table: string; column: string }>> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'character', 'json', 'jsonb')
      order by table_name, column_name`.execute(db);
    return rows.map((r) => ({ table: r.table_name, column: r.column_name }));
  }
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const out: Array<{ table: string; column: string }> = [];
  for (const t of tables.rows) {
    const cols = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${t.name})`.execute(db);
    for (const c of cols.rows) if (c.type === '' || /CHAR|CLOB|TEXT/i.test(c.type)) out.push({ table: t.name, column: c.name });
  }
  return out;
}

/** The `table.column` of every text column holding any of `needles` (as a substring), with how many rows. */
export async function findPersonalData(db: Kysely<Database>, needles: readonly string[]): Promise<string[]> {
  const hits: string[] = [];
  const columns = await textColumns(db);
  if (columns.length < 20) throw new Error(`only ${columns.length} text columns found: the scan would prove nothing`);
  for (const { table, column } of columns) {
    for (const needle of needles) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} like ${`%${needle}%`}`.execute(db);
      const n = Number(rows[0]?.n ?? 0);
      if (n) hits.push(`${table}.${column} (${n}× ${needle})`);
    }
  }
  return hits;
}
