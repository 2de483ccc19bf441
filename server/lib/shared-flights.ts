// Requests for the same figures while they are being computed share that computation, as long
// as nothing they depend on changed since it began (the owner calls changed()): figures many
// people keep open — a dashboard refetched by each of them when a lead arrives — cost one
// computation per change, and no request is answered with figures older than a change it heard of.
interface SharedFlights<K, V> {
  /** What the figures depend on changed: computations already under way are not shared any more. */
  changed(): void;
  /** `fn`'s answer, or the answer of the same key's computation begun since the last change. */
  run(key: K, fn: () => Promise<V>): Promise<V>;
}

export function sharedFlights<K, V>(): SharedFlights<K, V> {
  let generation = 0;
  const flights = new Map<K, { generation: number; promise: Promise<V> }>();
  return {
    changed() {
      generation++;
    },
    run(key, fn) {
      const current = flights.get(key);
      if (current && current.generation === generation) return current.promise;
      const promise: Promise<V> = fn().finally(() => {
        if (flights.get(key)?.promise === promise) flights.delete(key);
      });
      flights.set(key, { generation, promise });
      return promise;
    },
  };
}
