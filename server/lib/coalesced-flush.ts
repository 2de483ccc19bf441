// A durability barrier shared by many callers: `after()` resolves once a flush that started
// after the call has finished. While one flush runs, every caller that comes meanwhile waits for
// the single next one, so N commits during a flush cost one more flush, not N.
//
// Intake's SQLite writer commits a batch with synchronous = NORMAL (the WAL frames reach the
// OS, not yet the disk) and answers it only after `after()`: an fdatasync of the WAL, run on
// libuv's thread pool while the writer already commits the next batch. The guarantee is
// synchronous = FULL's (nothing is acknowledged before it is on disk); the writer no longer
// stands still during each fsync.

export class CoalescedFlush {
  /** The flush running now, if any. */
  private running: Promise<void> | null = null;
  /** The flush queued behind it, for those who came while it ran. */
  private queued: Promise<void> | null = null;

  constructor(private readonly flush: () => Promise<void>) {}

  /** Resolves after a flush that began after this call; rejects with that flush's error. */
  after(): Promise<void> {
    if (!this.running) return this.begin();
    // The running flush may have started before the caller's write: the next one covers it.
    this.queued ??= this.running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      this.queued = null;
      return this.begin();
    });
    return this.queued;
  }

  private begin(): Promise<void> {
    const p = (async () => this.flush())();
    this.running = p;
    const clear = () => {
      if (this.running === p) this.running = null;
    };
    p.then(clear, clear);
    return p;
  }
}
