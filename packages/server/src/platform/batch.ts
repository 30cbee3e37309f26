/**
 * Group commit: calls made while a batch is in flight wait for the next one, which takes them
 * all in one `run` (one statement, one commit, for callbacks arriving within the same
 * milliseconds). Under a light load a call runs alone, at once; under a heavy one the batches
 * grow instead of the queue of round trips. Each caller gets its own key's answer, or the
 * batch's error.
 */
export function groupCommit<K, R>(run: (keys: K[]) => Promise<Map<K, R>>, opts: { maxBatch?: number } = {}): (key: K) => Promise<R | undefined> {
  const maxBatch = opts.maxBatch ?? 500;
  let waiting: { key: K; resolve: (r: R | undefined) => void; reject: (err: unknown) => void }[] = [];
  let running = false;

  function next(): void {
    if (running || waiting.length === 0) return;
    running = true;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(batch.length);
    run([...new Set(batch.map((w) => w.key))])
      .then(
        (answers) => {
          for (const w of batch) w.resolve(answers.get(w.key));
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        running = false;
        next();
      });
  }

  return (key) =>
    new Promise<R | undefined>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      // The calls of this turn of the event loop go together.
      if (waiting.length === 1) setImmediate(next);
    });
}
