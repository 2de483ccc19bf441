// Group commit: work submitted while a transaction is running waits and then goes into
// the next one together, so N concurrent submissions cost one commit instead of N.
// Every caller is answered only after the transaction holding its item has committed.
// With `concurrency` > 1 (PostgreSQL) that many batches are in flight at once: one waits for
// its commit's flush while the next is being written. Submissions still join batches in order.

export class GroupCommit<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  /** Batches in flight. */
  private running = 0;
  private scheduled = false;

  /**
   * `run` handles a batch in one transaction and returns one outcome per item, in order.
   * `retryAlone` says whether a failed batch's items are worth retrying one by one: not when the
   * failure is the database's (it would only fail each again, one after the other).
   */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 200,
    private readonly concurrency = 1,
    private readonly retryAlone: (err: unknown) => boolean = () => true,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled && this.running < this.concurrency) {
        this.scheduled = true;
        // Let requests parsed in the same turn of the event loop join the batch.
        setImmediate(() => {
          this.scheduled = false;
          this.start();
        });
      }
    });
  }

  /** Resolves when everything submitted so far has been handled. */
  async idle(): Promise<void> {
    while (this.running || this.scheduled || this.queue.length) await new Promise((r) => setImmediate(r));
  }

  /** Starts a batch of what is queued, if a slot is free. */
  private start(): void {
    if (!this.queue.length || this.running >= this.concurrency) return;
    this.running++;
    void this.drain().finally(() => {
      this.running--;
      // Items that arrived while every slot was busy and the last batch just finished.
      this.start();
    });
  }

  /** Runs batches until the queue is empty; more slots pick up what arrives meanwhile. */
  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      // Another slot may take what arrives while this batch runs.
      if (this.queue.length && this.running < this.concurrency && !this.scheduled) this.start();
      try {
        const out = await this.run(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(out[i]!));
      } catch (err) {
        if (batch.length === 1 || !this.retryAlone(err)) {
          for (const b of batch) b.reject(err);
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
  }
}
