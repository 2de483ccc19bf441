// Test support: reads a server-sent event stream over real HTTP and collects one kind of event.
import { expect } from 'vitest';
import type { Client } from './test-helpers.ts';

export interface StreamReader<T> {
  events: T[];
  /** Resolves with the events once `n` have arrived, or fails after two seconds. */
  until(n: number): Promise<T[]>;
  /** Resolves true once the server has ended the stream, false when it is still open after five seconds. */
  ended(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens `url` (an event stream) as `client` and collects the data of the events named `event`. */
export async function readStream<T>(url: string, client: Client, event: string): Promise<StreamReader<T>> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie: client.cookie }, signal: controller.signal });
  expect(res.status, res.status === 200 ? '' : await res.text()).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: T[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const pattern = new RegExp(`^event: ${event}\\ndata: (.*)$`, 'm');
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = pattern.exec(block);
          if (data) events.push(JSON.parse(data[1]!) as T);
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    async until(n) {
      const deadline = Date.now() + 2000;
      while (events.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(events.length, 'events within 2 s').toBeGreaterThanOrEqual(n);
      return events;
    },
    ended: () => Promise.race([pump.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]),
    async close() {
      controller.abort();
      await pump;
    },
  };
}
