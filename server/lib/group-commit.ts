// Group commit: work submitted while a transaction is running waits and then goes into
// the next one together, so N concurrent submissions cost one commit instead of N.
// Every caller is answered only after the transaction holding its item has committed.

export class GroupCommit<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private running = false;

  /** `run` handles a batch in one transaction and returns one outcome per item, in order. */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 200,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Let requests parsed in the same turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Resolves when everything submitted so far has been handled. */
  async idle(): Promise<void> {
    while (this.running) await new Promise((r) => setImmediate(r));
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const out = await this.run(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(out[i]!));
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          // One bad item must not fail its neighbours: retry each alone.
          for (const b of batch) {
            try {
              b.resolve((await this.run([b.item]))[0]!);
            } catch (e) {
              b.reject(e);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
  }
}
