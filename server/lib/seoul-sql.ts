// SQL for Asia/Seoul calendar days over ISO-8601 UTC text timestamps, per engine.
import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../db/dialect.ts';

/** The Seoul day (YYYY-MM-DD) of a timestamp column. */
export function seoulDaySql(dialect: DialectName, column: string): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char((${sql.ref(column)}::timestamptz at time zone 'Asia/Seoul'), 'YYYY-MM-DD')`
    : sql<string>`substr(datetime(${sql.ref(column)}, '+9 hours'), 1, 10)`;
}
