// Endpoints in react-query: one key per endpoint and input, so a change can refresh every
// screen that shows the endpoint's data (invalidate by the endpoint alone).
import { keepPreviousData, useQuery, type QueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { CallInput, Endpoint, ResponseOf } from '@contracts/endpoint.ts';
import { call, type CallArgs } from './api.ts';

/** The query key of a call; the endpoint's own key is the prefix of all its calls. */
export const apiKey = (e: Endpoint, input?: unknown): readonly unknown[] => (input === undefined ? ['api', e.method, e.path] : ['api', e.method, e.path, input]);

/** Refreshes every query of these endpoints (whatever their params and query). */
export const invalidate = (client: QueryClient, endpoints: readonly Endpoint[]) =>
  Promise.all(endpoints.map((e) => client.invalidateQueries({ queryKey: apiKey(e) })));

type Options<E extends Endpoint> = Omit<UseQueryOptions<ResponseOf<E>>, 'queryKey' | 'queryFn'> & { keepPrevious?: boolean };

/** useQuery of one call. */
export function useCall<E extends Endpoint>(e: E, input?: CallInput<E>, o: Options<E> = {}) {
  const { keepPrevious, ...options } = o;
  return useQuery<ResponseOf<E>>({
    queryKey: apiKey(e, input),
    queryFn: () => call(e, ...([input] as unknown as CallArgs<E>)),
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
    ...options,
  });
}
