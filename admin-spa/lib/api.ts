// The typed client: call(endpoint, { params, query, body }) for every endpoint declared in
// contracts/. JSON in and out, errors as ApiError({ code, message, fields }), and a 401 from
// any call but login clears the stored account (see auth.tsx). No schema library here: the
// login screen's bundle imports this.
import { BACKGROUND_HEADER, SESSION_PATHS } from '@contracts/http.ts';
import { pathOf, type CallInput, type Endpoint, type ResponseOf } from '@contracts/endpoint.ts';
import type { ErrorCode } from '@contracts/errors.ts';
import { dropPrefetched, recordCall, takePrefetched } from './prefetch.ts';

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

/** A maintenance window's refusal (503): the back office shows the notice in place of the screen (components/notice-banner.tsx). */
const MAINTENANCE: ErrorCode = 'MAINTENANCE';
let onMaintenance: ((message: string) => void) | null = null;
export function setMaintenanceHandler(fn: ((message: string) => void) | null): void {
  onMaintenance = fn;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

interface RequestOptions {
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

/** `read`: a call() of data a screen shows (a download is not one: it is never remembered nor started ahead). */
async function send<E extends Endpoint>(e: E, input: CallInput<E> | undefined, o: RequestOptions, read = false): Promise<Response> {
  const body = input?.body as unknown;
  const form = body instanceof FormData;
  const url = urlOf(e, input);
  // A screen's first reads: the same GET may already be on its way (prefetch.ts).
  const plainGet = read && e.method === 'GET' && !o.background && !o.signal;
  if (plainGet) recordCall(url);
  else if (e.method !== 'GET') dropPrefetched();
  try {
    const prefetched = plainGet ? await takePrefetched(url)?.catch(() => null) : null;
    if (prefetched) return prefetched;
    return await fetch(url, {
      method: e.method,
      credentials: 'same-origin',
      headers: {
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
        ...(o.background ? { [BACKGROUND_HEADER]: '1' } : {}),
      },
      body: form ? body : body !== undefined ? JSON.stringify(body) : undefined,
      signal: o.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', '서버에 연결할 수 없습니다. 네트워크를 확인하세요.');
  }
}

async function failure(e: Endpoint, res: Response): Promise<ApiError> {
  const data = await res.json().catch(() => null);
  const err = data?.error;
  if (res.status === 401 && e.path !== SESSION_PATHS.login) onUnauthenticated?.();
  if (res.status === 503 && err?.code === MAINTENANCE) onMaintenance?.(err.message);
  return new ApiError(res.status, err?.code ?? 'HTTP_' + res.status, err?.message ?? '요청을 처리하지 못했습니다.', err?.fields);
}

export async function call<E extends Endpoint>(e: E, ...[input, o = {}]: CallArgs<E>): Promise<ResponseOf<E>> {
  const res = await send(e, input, o, true);
  if (!res.ok) throw await failure(e, res);
  if (res.status === 204 || e.response === null) return undefined as ResponseOf<E>;
  if (e.response === 'html') return (await res.text()) as ResponseOf<E>;
  return (await res.json()) as ResponseOf<E>;
}

interface DownloadProgress {
  /** Bytes received so far. */
  bytes: number;
  /** The response's headers (e.g. the row count an export announced). */
  headers: Headers;
}

/**
 * Calls a 'file' endpoint and saves what it answers under the name the server gave, reporting
 * progress as the bytes arrive; errors come back as ApiError like call()'s. Answers the name.
 */
export async function download<E extends Endpoint>(
  e: E,
  input: CallInput<E> | undefined,
  o: RequestOptions & { onProgress?: (p: DownloadProgress) => void } = {},
): Promise<string> {
  const res = await send(e, input, o);
  if (!res.ok) throw await failure(e, res);
  const name = fileNameOf(res.headers.get('content-disposition')) ?? 'download';
  const parts: Uint8Array[] = [];
  let bytes = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parts.push(value);
    bytes += value.byteLength;
    o.onProgress?.({ bytes, headers: res.headers });
  }
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: res.headers.get('content-type') ?? 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** The file name of a Content-Disposition header (filename* first: it carries Korean). */
function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
}
