import type { Logger } from 'pino';
import { failureLevel } from './db-unavailable.ts';

/** A long-running piece of a process (dispatcher, sweeper, retention) that stops on shutdown. */
export interface BackgroundWorker {
  readonly name: string;
  /** Stops ticking, lets the tick in progress and the drain finish, then resolves. */
  stop(): Promise<void>;
}

export interface LoopWorker extends BackgroundWorker {
  /** Ends the wait before the next tick now (new work arrived). */
  wake(): void;
}

export interface WorkerSpec {
  name: string;
  logger?: Logger;
  /** Before the first tick (a restart loop must not keep a slow worker from ever running). */
  firstDelayMs?: number;
  /** Between the end of a tick that left nothing to do at once and the next tick. */
  intervalMs: number;
  /** After a tick that threw (default: intervalMs). */
  errorDelayMs?: number;
  /**
   * One round of work. Returns true when more is there at once (the next tick starts without
   * waiting). `signal` aborts on stop: a long tick ends after the batch in progress.
   */
  tick(signal: AbortSignal): Promise<boolean | void>;
  /** After the last tick, before stop() resolves: finish what was started (in-flight deliveries). */
  drain?(): Promise<void>;
  /** After every tick, ok or not (tests wait on it). */
  onTick?(): void;
}

/**
 * The one loop of every background worker: tick, wait (interval or wake-up), tick again, until
 * stop(), which aborts the wait, waits for the tick in progress, then drains. A tick that throws
 * is logged and retried after `errorDelayMs`; the loop never dies of it. Waits are real time:
 * the work itself reads the injected clock.
 */
export function startWorker(spec: WorkerSpec): LoopWorker {
  const stopping = new AbortController();
  let wakeUp: (() => void) | undefined;
  let woken = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping.signal.aborted || woken) {
        woken = false;
        return resolve();
      }
      const done = () => {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        wakeUp = undefined;
        woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      stopping.signal.addEventListener('abort', done, { once: true });
      wakeUp = done;
    });

  const loop = (async () => {
    if (spec.firstDelayMs) await pause(spec.firstDelayMs);
    while (!stopping.signal.aborted) {
      let again = false;
      let delay = spec.intervalMs;
      try {
        again = (await spec.tick(stopping.signal)) === true;
      } catch (err) {
        spec.logger?.[failureLevel(err)]({ err, worker: spec.name }, `${spec.name} round failed`);
        delay = spec.errorDelayMs ?? spec.intervalMs;
      }
      spec.onTick?.();
      if (!again && !stopping.signal.aborted) await pause(delay);
    }
    await spec.drain?.();
  })();

  return {
    name: spec.name,
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
