import { ERROR_CODES } from '../../contracts/errors.ts';

/** An error the API answers as `{ error: { code, message, fields? } }` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, ERROR_CODES.VALIDATION, message, fields);
export const unauthenticated = (message = '로그인이 필요합니다.') => new AppError(401, ERROR_CODES.UNAUTHENTICATED, message);
export const forbidden = (message = '이 작업을 할 권한이 없습니다.') => new AppError(403, ERROR_CODES.FORBIDDEN, message);
export const notFound = (message = '요청한 항목을 찾을 수 없습니다.') => new AppError(404, ERROR_CODES.NOT_FOUND, message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(409, ERROR_CODES.CONFLICT, message, fields);

/** Maps a unique-constraint violation from either engine to a field conflict, else rethrows. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** A row another table still refers to (delete refused by a foreign key) on either engine. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(e?.message ?? '');
}

/** Runs a write; a unique-constraint hit (a race the service's own check missed) answers 409 on `field`. */
export async function uniqueOr409<T>(write: () => Promise<T>, field: string, message: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message, { [field]: message });
    throw err;
  }
}
