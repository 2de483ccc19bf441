// Errors are data: every failure answers { error: { code, message, fields? } }.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.ts';
import { isDatabaseUnavailable } from '../db/dialect-sql.ts';
import { ERROR_CODES, errorBody } from '../../contracts/errors.ts';

function zodFields(err: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

const DATABASE_UNAVAILABLE_MESSAGE = '데이터베이스에 잠시 연결할 수 없습니다. 잠시 후 다시 시도하세요.';

export function errorsPlugin(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | ZodError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send(errorBody(err.code, err.message, err.fields));
    }
    if (err instanceof ZodError) {
      const fields = zodFields(err);
      return reply.code(400).send(errorBody(ERROR_CODES.VALIDATION, Object.values(fields)[0] ?? '입력값을 확인하세요.', fields));
    }
    // Params, query or body refused by its schema (the zod type provider).
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) fields[v.instancePath.split('/').filter(Boolean).join('.') || '_'] ??= v.message ?? '입력값을 확인하세요.';
      return reply.code(400).send(errorBody(ERROR_CODES.VALIDATION, Object.values(fields)[0] ?? '입력값을 확인하세요.', fields));
    }
    if (isResponseSerializationError(err as FastifyError)) {
      req.log.error({ err, cause: (err as { cause?: unknown }).cause }, 'response does not match its schema');
      return reply.code(500).send(errorBody(ERROR_CODES.INTERNAL, '서버 오류가 발생했습니다. 잠시 후 다시 시도하세요.'));
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send(errorBody(ERROR_CODES.RATE_LIMITED, '요청이 너무 많습니다. 잠시 후 다시 시도하세요.'));
    }
    if (status === 413) {
      return reply.code(413).send(errorBody(ERROR_CODES.PAYLOAD_TOO_LARGE, '보낸 내용이 너무 큽니다.'));
    }
    if (status === 415) {
      return reply.code(415).send(errorBody(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, '지원하지 않는 형식입니다.'));
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(ERROR_CODES.BAD_REQUEST, '요청을 처리할 수 없습니다. 입력값을 확인하세요.'));
    }
    // The database restarting or out of reach is a moment's failure, not the request's: 503, try again.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return reply.code(503).send(errorBody(ERROR_CODES.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody(ERROR_CODES.INTERNAL, '서버 오류가 발생했습니다. 잠시 후 다시 시도하세요.'));
  });
}
