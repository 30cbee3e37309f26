/**
 * The Kysely database interface. Each module adds its own tables by declaration merging
 * (`declare module '../../platform/database.ts' { interface Database { … } }`) in its
 * repository file, so a table's type lives beside the SQL that uses it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each module
export interface Database {}
