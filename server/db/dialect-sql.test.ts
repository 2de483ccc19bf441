import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './dialect-sql.ts';

const err = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), extra);

describe('isDatabaseUnavailable', () => {
  it.each([
    ['PostgreSQL shutting down (pg_ctl restart)', err('terminating connection due to administrator command', { code: '57P01' })],
    ['PostgreSQL starting up', err('the database system is starting up', { code: '57P03' })],
    ['too many connections', err('sorry, too many clients already', { code: '53300' })],
    ['a connection failure', err('connection failure', { code: '08006' })],
    ['connection refused', err('connect ECONNREFUSED 10.0.0.5:5432', { code: 'ECONNREFUSED', syscall: 'connect' })],
    ['a blackhole route', err('connect EINVAL 10.0.0.5:5432', { code: 'EINVAL', syscall: 'connect' })],
    ['a connection lost mid-query', err('Connection terminated unexpectedly')],
    ['no connection within the timeout (pg-pool wraps it)', err('Connection terminated due to connection timeout', { cause: err('timeout expired') })],
    ['a dead connection closed by the pool', err('the database cannot be reached', { code: 'ETIMEDOUT' })],
    ['SQLite locked past the busy timeout', err('database is locked', { code: 'SQLITE_BUSY' })],
    ['the same from the intake writer thread', err('intake writer: SqliteError: database is locked', { code: 'SQLITE_BUSY' })],
  ])('%s: yes', (_, e) => expect(isDatabaseUnavailable(e)).toBe(true));

  it.each([
    ['a unique violation', err('duplicate key value violates unique constraint', { code: '23505' })],
    ['a syntax error', err('syntax error at or near "selec"', { code: '42601' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['EINVAL not from connect', err('invalid argument', { code: 'EINVAL', syscall: 'write' })],
    ['nothing', undefined],
  ])('%s: no', (_, e) => expect(isDatabaseUnavailable(e)).toBe(false));
});
