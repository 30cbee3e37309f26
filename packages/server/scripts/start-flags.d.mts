/** The node options for embedded PGlite (start-flags.mjs). */
export declare const PGLITE_NODE_ARGS: readonly string[];
/** Node options for `caisse start` in this environment: PGlite's when DATABASE_URL is unset or empty, none otherwise. */
export declare function startNodeArgs(env?: Record<string, string | undefined>): string[];
