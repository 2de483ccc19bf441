// One server-sent event stream while a screen or layout is mounted: its named events reach a
// handler, and a dropped connection (a sleeping laptop, a restarted server) reconnects by
// itself (EventSource does) and then tells the screen to catch up on what it missed.
import { useEffect, useRef } from 'react';

interface ServerEventHandlers<T> {
  onEvent(data: T): void;
  /** The stream came back after a drop: refetch what may have changed meanwhile. */
  onReconnect(): void;
}

/** Listens to `url` (null: not now) for events named `event`. */
export function useServerEvents<T>(url: string | null, event: string, handlers: ServerEventHandlers<T>): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return;
    const source = new EventSource(url);
    let dropped = false;
    source.addEventListener('open', () => {
      if (dropped) latest.current.onReconnect();
      dropped = false;
    });
    source.addEventListener('error', () => {
      dropped = true;
    });
    source.addEventListener(event, (e) => latest.current.onEvent(JSON.parse((e as MessageEvent<string>).data) as T));
    return () => source.close();
  }, [url, event]);
}

/**
 * A function that runs `fn` at most once per `ms`, the last call never lost: a burst of events
 * (a batch of imported leads) becomes one refetch, and the last one still happens.
 */
export function coalesce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = null;
      last = Date.now();
      fn();
    }, wait);
  };
}
