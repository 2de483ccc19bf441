// Errors are data: { error: { code, message, fields? } }.
import { z } from './zod.ts';

export const errorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

export const ERROR_CODES = {
  VALIDATION: 'VALIDATION',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  LOCKED: 'LOCKED',
  PASSWORD_CHANGE_REQUIRED: 'PASSWORD_CHANGE_REQUIRED',
  RATE_LIMITED: 'RATE_LIMITED',
  CSRF: 'CSRF',
  INTERNAL: 'INTERNAL',
  BAD_REQUEST: 'BAD_REQUEST',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** Work of this kind is queued to its limit (image conversion): try again shortly (503, Retry-After). */
  BUSY: 'BUSY',
  // Public form submissions (intake).
  BAD_TOKEN: 'BAD_TOKEN',
  /** The landing page's script takes a fresh token and sends once more on this one. */
  TOKEN_EXPIRED: 'TOKEN_EXPIRED',
  GONE: 'GONE',
  BLOCKED: 'BLOCKED',
  DENIED: 'DENIED',
  /** A maintenance window is under way: the back office answers 503 to all but 최고관리자 (Retry-After says until when). */
  MAINTENANCE: 'MAINTENANCE',
  /** The database cannot be reached just now (restarting, out of reach, busy): 503, try again shortly. */
  UNAVAILABLE: 'UNAVAILABLE',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The one shape of every error answer. */
export const errorBody = (code: ErrorCode, message: string, fields?: Record<string, string>): z.infer<typeof errorResponse> => ({
  error: { code, message, ...(fields ? { fields } : {}) },
});
