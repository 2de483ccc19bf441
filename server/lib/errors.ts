import { ERROR_CODES, type ErrorCode } from '../../contracts/errors.ts';

/** An error the API answers as `{ error: { code, message, fields? } }` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
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

/** The row a lookup found, or a 404 with `message` (the thing named in Korean). */
export async function foundOr404<T>(lookup: Promise<T | undefined>, message: string): Promise<T> {
  const row = await lookup;
  if (row === undefined) throw notFound(message);
  return row;
}

export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(409, ERROR_CODES.CONFLICT, message, fields);
