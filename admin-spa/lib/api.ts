// The typed client: call(endpoint, { params, query, body }) for every endpoint declared in
// contracts/. JSON in and out, errors as ApiError({ code, message, fields }), and a 401 from
// any call but login clears the stored account (see auth.tsx). No schema library here: the
// login screen's bundle imports this.
import { BACKGROUND_HEADER, SESSION_PATHS } from '@contracts/http.ts';
import { pathOf, type CallInput, type Endpoint, type ResponseOf } from '@contracts/endpoint.ts';

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

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export interface RequestOptions {
  /** A refresh nobody asked for (polling): answered, but the session's idle clock runs on. */
  background?: boolean;
  /** Cancels the request (a newer one replaces it). */
  signal?: AbortSignal;
}

type NoneRequired<T> = Partial<T> extends T ? true : false;
/** The call's arguments: the input may be left out when the endpoint takes nothing required. */
export type CallArgs<E extends Endpoint> = NoneRequired<CallInput<E>> extends true
  ? [input?: CallInput<E>, o?: RequestOptions]
  : [input: CallInput<E>, o?: RequestOptions];

/** The URL a call goes to (params filled in, query appended): for iframes and links. */
export function urlOf<E extends Endpoint>(e: E, input?: CallInput<E>): string {
  return withQuery(pathOf(e.path, input?.params as Record<string, unknown> | undefined), input?.query as Query | undefined);
}

export async function call<E extends Endpoint>(e: E, ...[input, o = {}]: CallArgs<E>): Promise<ResponseOf<E>> {
  const body = input?.body as unknown;
  const form = body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(urlOf(e, input), {
      method: e.method,
      credentials: 'same-origin',
      headers: {
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
        ...(o.background ? { [BACKGROUND_HEADER]: '1' } : {}),
      },
      body: form ? body : body !== undefined ? JSON.stringify(body) : undefined,
      signal: o.signal,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', '서버에 연결할 수 없습니다. 네트워크를 확인하세요.');
  }
  if (res.ok && (res.status === 204 || e.response === null)) return undefined as ResponseOf<E>;
  if (res.ok && e.response === 'html') return (await res.text()) as ResponseOf<E>;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = data?.error;
    if (res.status === 401 && e.path !== SESSION_PATHS.login) onUnauthenticated?.();
    throw new ApiError(res.status, err?.code ?? 'HTTP_' + res.status, err?.message ?? '요청을 처리하지 못했습니다.', err?.fields);
  }
  return data as ResponseOf<E>;
}
