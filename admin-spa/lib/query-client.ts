import { useEffect, useRef } from 'react';
import { QueryClient, useQueryClient } from '@tanstack/react-query';
import type { CallInput, Endpoint } from '@contracts/endpoint.ts';
import { ApiError, call, type CallArgs } from './api.ts';
import { apiKey } from './use-call.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});

/**
 * Refreshes a query every `ms` while the page is visible, as a background request: the figures
 * stay current, but an unattended screen does not keep the session from idling out (the server
 * does not count such requests as activity). A refresh that meets an ended session (401)
 * returns to /bclog like any other request.
 */
export function useBackgroundRefresh<E extends Endpoint>(e: E, input?: CallInput<E>, ms = 60_000): void {
  const client = useQueryClient();
  const latest = useRef({ e, input });
  useEffect(() => {
    latest.current = { e, input };
  });
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      const { e: endpoint, input: args } = latest.current;
      void fetchInBackground(client, endpoint, args);
    }, ms);
    return () => clearInterval(id);
  }, [client, ms]);
}

function fetchInBackground<E extends Endpoint>(client: QueryClient, e: E, input: CallInput<E> | undefined) {
  const queryFn = () => call(e, ...([input, { background: true }] as unknown as CallArgs<E>));
  return client.fetchQuery({ queryKey: apiKey(e, input), queryFn, staleTime: 0 }).catch(() => {});
}

/**
 * Refreshes what screens show of these endpoints because the server said it changed (a live
 * event): the queries on screen refetch as background requests — news arriving must not keep
 * an unattended session from idling out — and the others are marked stale for their next use.
 */
export function refreshInBackground(client: QueryClient, endpoints: readonly Endpoint[]): void {
  for (const e of endpoints) {
    void client.invalidateQueries({ queryKey: apiKey(e), refetchType: 'none' });
    for (const q of client.getQueryCache().findAll({ queryKey: apiKey(e), type: 'active' })) {
      // A query that reads its endpoint its own way (the lead drawer names its opening, or each
      // refresh would record another view) says how to read it in the background. fetchQuery
      // leaves its options on the query until the screen renders again: the meta goes with them.
      const own = (q.meta as BackgroundMeta | undefined)?.background;
      if (own) void client.fetchQuery({ queryKey: q.queryKey, queryFn: own, meta: q.meta, staleTime: 0 }).catch(() => {});
      else void fetchInBackground(client, e, q.queryKey[3] as CallInput<typeof e> | undefined);
    }
  }
}

/** A query's `meta` when its background refresh is not a plain call of its endpoint. */
export interface BackgroundMeta extends Record<string, unknown> {
  background: () => Promise<unknown>;
}
