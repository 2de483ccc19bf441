import { useEffect, useRef } from 'react';
import { QueryClient, useQueryClient } from '@tanstack/react-query';
import { ApiError, type RequestOptions } from './api.ts';

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
export function useBackgroundRefresh(queryKey: readonly unknown[], fetcher: (o: RequestOptions) => Promise<unknown>, ms = 60_000): void {
  const client = useQueryClient();
  const latest = useRef({ queryKey, fetcher });
  useEffect(() => {
    latest.current = { queryKey, fetcher };
  });
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      const { queryKey: key, fetcher: fetch } = latest.current;
      void client.fetchQuery({ queryKey: key, queryFn: () => fetch({ background: true }), staleTime: 0 }).catch(() => {});
    }, ms);
    return () => clearInterval(id);
  }, [client, ms]);
}
