// The API client: JSON in and out, errors as ApiError({ code, message, fields }),
// and a 401 from any call but login clears the stored account (see auth.tsx).
import { BACKGROUND_HEADER } from '../../contracts/http.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

let onUnauthenticated: (() => void) | null = null;
export function setUnauthenticatedHandler(fn: (() => void) | null): void {
  onUnauthenticated = fn;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export interface RequestOptions {
  /** A refresh nobody asked for (polling): answered, but the session's idle clock runs on. */
  background?: boolean;
}

async function request<T>(method: string, path: string, body?: unknown, o: RequestOptions = {}): Promise<T> {
  let res: Response;
  const form = body instanceof FormData;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
        ...(o.background ? { [BACKGROUND_HEADER]: '1' } : {}),
      },
      body: form ? body : body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', '서버에 연결할 수 없습니다. 네트워크를 확인하세요.');
  }
  if (res.status === 204) return undefined as T;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = data?.error;
    if (res.status === 401 && path !== '/api/auth/login') onUnauthenticated?.();
    throw new ApiError(res.status, err?.code ?? 'HTTP_' + res.status, err?.message ?? '요청을 처리하지 못했습니다.', err?.fields);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Query, o?: RequestOptions) => request<T>('GET', withQuery(path, query), undefined, o),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  /** multipart/form-data (file uploads); the browser sets the boundary. */
  upload: <T>(path: string, body: FormData) => request<T>('POST', path, body),
  del: <T = void>(path: string) => request<T>('DELETE', path),
};
