// The retention module: schedules the purges every module offers, so nothing piles up forever.
export { type PurgeCounts, purgeExpired, startRetention } from './retention.service.ts';
