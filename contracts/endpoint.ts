// Endpoints are declared once, here in contracts/: method, path, params, query, body and
// response. The server registers each with its access rule (server/plugins/route.ts), the
// back office calls it through one typed client (admin-spa/lib/api.ts): a wrong path, field
// or response shape is a type error on both sides.
import type { z } from 'zod';

type Schema = z.ZodType;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * What an endpoint answers: JSON of its schema, nothing (204), an HTML page, a stream of
 * server-sent events (text/event-stream; the browser reads it with EventSource), or a file to
 * save (an export, a report: the browser downloads it with download() in admin-spa/lib/api.ts).
 */
type ResponseKind = Schema | null | 'html' | 'events' | 'file';

/** What a 'file' endpoint's handler returns; the body may stream (never held whole in memory). */
export interface FileReply {
  /** The name the browser saves it under (Korean is fine). */
  fileName: string;
  contentType: string;
  body: AsyncIterable<Uint8Array | string> | Uint8Array | string;
  /** More headers, e.g. the row count an export is about to send (for its progress). */
  headers?: Record<string, string>;
}
/** What it takes: JSON of its schema, or a multipart upload. */
type BodyKind = Schema | 'multipart';

export interface Endpoint<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends BodyKind | undefined = BodyKind | undefined,
  R extends ResponseKind = ResponseKind,
> {
  readonly method: Method;
  /** With `:name` segments filled from params, e.g. `/api/shops/:shopId/landings/:id`. */
  readonly path: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly response: R;
  /** The success status: 200 by default, 204 for no response body. */
  readonly status?: number;
}

export function endpoint<
  R extends ResponseKind,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends BodyKind | undefined = undefined,
>(e: { method: Method; path: string; params?: P; query?: Q; body?: B; response: R; status?: number }): Endpoint<P, Q, B, R> {
  return e as Endpoint<P, Q, B, R>;
}

type Input<S> = S extends Schema ? z.input<S> : never;

/** What a caller passes: params, query and body as the endpoint declares them. */
export type CallInput<E extends Endpoint> = (E['params'] extends Schema ? { params: Input<E['params']> } : { params?: never }) &
  (E['query'] extends Schema ? { query?: Input<E['query']> } : { query?: never }) &
  (E['body'] extends 'multipart' ? { body: FormData } : E['body'] extends Schema ? { body: Input<E['body']> } : { body?: never });

/** What a caller gets back. */
export type ResponseOf<E extends Endpoint> = E['response'] extends Schema ? z.output<E['response']> : E['response'] extends 'html' ? string : void;

/** The parts of a call the server's handler receives, parsed. */
export type ParamsOf<E extends Endpoint> = E['params'] extends Schema ? z.output<E['params']> : undefined;
export type QueryOf<E extends Endpoint> = E['query'] extends Schema ? z.output<E['query']> : undefined;
export type BodyOf<E extends Endpoint> = E['body'] extends Schema ? z.output<E['body']> : undefined;
/** What a handler returns (its response schema's input). */
export type ReplyOf<E extends Endpoint> = E['response'] extends Schema
  ? z.input<E['response']>
  : E['response'] extends 'html'
    ? string
    : E['response'] extends 'file'
      ? FileReply
      : void;

/** The URL of a call: `:name` segments filled in (encoded). */
export function pathOf(path: string, params?: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`${path}: missing ${name}`);
    return encodeURIComponent(String(v));
  });
}
