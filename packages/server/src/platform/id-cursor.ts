import { newId } from './ids.ts';

/**
 * Positions in a stream of time-sorted ids (a merchant's events: caisse listen). Event ids are `evt_` + a ULID-like body whose first
 * 48 bits are the creation time in milliseconds (platform/ids.ts), so an id is also a time, and
 * the id made of a time and 80 zero bits sorts before every event id of that millisecond: a
 * cursor meaning "from this instant on".
 */

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
export const EVENT_ID = /^evt_[0-9a-hjkmnp-tv-z]{26}$/;

/** Creation time (ms since the epoch) written in an event id. */
export function eventIdTime(id: string): number {
  // The first 10 characters hold 50 bits: the 48 bits of milliseconds and 2 random bits.
  let value = 0;
  for (const ch of id.slice(4, 14)) value = value * 32 + CROCKFORD.indexOf(ch);
  return Math.floor(value / 4);
}

/** The smallest event id of millisecond `ms`: a cursor that sorts before all events made from then on. */
export function eventIdFloor(ms: number): string {
  return newId('event', { now: () => new Date(Math.max(0, ms)) }, (n) => Buffer.alloc(n));
}

/** True for a cursor made by `eventIdFloor` rather than the id of a real event. */
export function isFloor(id: string): boolean {
  return id === eventIdFloor(eventIdTime(id));
}
