/* global process */
// The node options of `npm start`, chosen by the database it will open (docs/decisions/0015-performance.md,
// docs/decisions/0045-performance-in-machine-units.md). On embedded PGlite they lower the peak
// memory: 2 MB semi-spaces (V8's default 16 MB cost about 30 MB of peak RSS), an old generation
// that grows less past its live objects, one platform thread (whose malloc arena is what stays of
// the WebAssembly tier-up). On PostgreSQL there is no WebAssembly engine to keep small, and the
// small young generation only makes V8 collect more often: no options there.

/** The options for embedded PGlite. */
export const PGLITE_NODE_ARGS = Object.freeze(['--max-semi-space-size=2', '--max-old-space-size=512', '--v8-pool-size=1']);

/** Node options for `caisse start` in this environment: PGlite's when DATABASE_URL is unset or empty (as the server reads it), none otherwise. */
export function startNodeArgs(env = process.env) {
  const url = env.DATABASE_URL;
  return url === undefined || url === '' ? [...PGLITE_NODE_ARGS] : [];
}
