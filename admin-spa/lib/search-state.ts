// State a screen keeps in its URL (?lead=, ?shop=, ?from=&to= …): read from the search params,
// changed by patching them, so a reload or a shared link opens the same view.
import { useSearchParams, type NavigateOptions } from 'react-router-dom';

/** What to change in the URL: a string sets the key, null removes it. */
export type SearchPatch = Record<string, string | null>;

/** `search` with `patch` applied (a new object: the router's own is left as it is). */
export function patchedSearch(search: URLSearchParams, patch: SearchPatch): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) next.delete(k);
    else next.set(k, v);
  }
  return next;
}

/** The URL's search params and a way to change some of them. */
export function useSearchPatch() {
  const [search, setSearch] = useSearchParams();
  const patch = (p: SearchPatch, options?: NavigateOptions) => setSearch(patchedSearch(search, p), options);
  return [search, patch] as const;
}

/** A positive id kept in the URL under `key` (the lead a drawer shows, the shop a view is narrowed to); null when absent. */
export function useSearchId(key: string): [number | null, (id: number | null) => void] {
  const [search, patch] = useSearchPatch();
  const id = Number(search.get(key)) || null;
  return [id, (next) => patch({ [key]: next ? String(next) : null })];
}

/**
 * The screen's tab, kept in ?tab= (the first of `tabs` when absent or unknown). Changing tabs
 * starts the other tab's own view: one table's filters do not carry over to another.
 */
export function useTab<T extends string>(tabs: readonly [T, ...T[]]): [T, (tab: string) => void] {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab') as T | null;
  const tab = asked && tabs.includes(asked) ? asked : tabs[0];
  return [tab, (k) => setSearch(k === tabs[0] ? {} : { tab: k })];
}
