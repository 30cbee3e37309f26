// The retention module: schedules the purges every module offers, so nothing piles up forever.
export {
  type PurgeCounts,
  purgeExpired,
  type Purgers,
  RETENTION_BATCH_SIZE,
  RETENTION_FIRST_ROUND_MS,
  RETENTION_INTERVAL_MS,
  startRetention,
} from './retention.service.ts';
