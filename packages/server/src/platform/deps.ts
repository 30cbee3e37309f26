import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import type { RandomBytes } from './crypto.ts';
import type { Db, ReadRouter } from './db.ts';
import type { IdFactory } from './ids.ts';
import type { Wakeups } from './wakeups.ts';

/** The world, injected: every service receives these instead of reaching for globals. */
export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  random: RandomBytes;
  ids: IdFactory;
  /** Wake-ups between processes (runtime.ts); absent in tests that build the app alone. */
  wakeups?: Wakeups;
  /** Where the dashboard's heavy reads may go (DATABASE_READ_URL: docs/scaling.md); absent, everything reads from `db`. */
  reads?: ReadRouter;
}
