// Group commit: work submitted while a transaction is running waits and then goes into
// the next one together, so N concurrent submissions cost one commit instead of N.
// Every caller is answered only after the transaction holding its item has committed.
// With `concurrency` > 1 (PostgreSQL) that many batches are in flight at once: one waits for
// its commit's flush while the next is being written. Submissions still join batches in order.
//
// Under steady load the submitters split into cohorts — one waiting in the batch being
// committed, others queueing for the next — so each commit carries a part of them. With
// `lingerMs`, a batch that starts within lingerMs of the last one's end waits (until lingerMs
// after that end at most, as PostgreSQL's commit_delay does) for as many submissions as were in
// flight then — the batch just answered and those queued behind it — to come back and join it:
// fewer commits for the same submissions. A submission after a quiet moment goes at once.

export class GroupCommit<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  /** Batches in flight. */
  private running = 0;
  private scheduled = false;
  /** Batches waiting for the cohort just answered (gather). */
  private gathering = new Set<{ want: number; done: () => void }>();
  /** When the last batch ended, and how many submissions were in flight then (it and those queued). */
  private last: { endedAt: number; inFlight: number } | null = null;

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
    private readonly lingerMs = 0,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      for (const g of this.gathering) if (this.queue.length >= g.want) g.done();
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

  /** Waits until as many are queued as were in flight when the last batch ended (or a full batch), until lingerMs after that end. */
  private gather(last: { endedAt: number; inFlight: number }): Promise<void> {
    const left = last.endedAt + this.lingerMs - performance.now();
    const want = Math.min(last.inFlight, this.maxBatch);
    if (left <= 0 || this.queue.length >= want) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const g = {
        want,
        done: () => {
          clearTimeout(timer);
          this.gathering.delete(g);
          resolve();
        },
      };
      const timer = setTimeout(g.done, left);
      this.gathering.add(g);
    });
  }

  /** Runs batches until the queue is empty; more slots pick up what arrives meanwhile. */
  private async drain(): Promise<void> {
    while (this.queue.length) {
      if (this.lingerMs > 0 && this.last) await this.gather(this.last);
      const batch = this.queue.splice(0, this.maxBatch);
      // Another slot may take what arrives while this batch runs.
      if (this.queue.length && this.running < this.concurrency && !this.scheduled) this.start();
      try {
        const out = await this.run(batch.map((b) => b.item));
        this.last = { endedAt: performance.now(), inFlight: batch.length + this.queue.length };
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
