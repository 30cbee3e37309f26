/**
 * Webhook verification cases decided by @caisse/node itself: each case's body, header, secrets,
 * tolerance and clock, and what `constructEvent` did with them (the event's type, or the error's
 * code). The PHP tests replay them through `Caisse\Webhook::constructEvent`, so the two clients
 * accept exactly the same deliveries; made at test time, they cannot drift from the Node client.
 */
import { createHmac } from 'node:crypto';
import { Caisse, CaisseError } from '@caisse/node';

export interface Vector {
  name: string;
  /** The raw body, base64 (it may hold bytes that are not UTF-8). */
  body: string;
  header: string | string[] | null;
  secrets: string | string[];
  /** Seconds; null for the default, 'Infinity' to skip the check. */
  tolerance: number | 'Infinity' | null;
  /** Unix seconds. */
  now: number;
  expected: { ok: true; type: string; id: unknown } | { ok: false; code: string };
  /** What generateTestHeader gives for (body, secrets[0], now), to compare with the PHP one. */
  testHeader: string;
}

const SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const OTHER = 'whsec_' + Buffer.alloc(32, 9).toString('base64');
const NOW = 1_790_000_000;

const hmac = (secret: string, t: number | string, body: Buffer) => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

export function webhookVectors(): Vector[] {
  const event = Buffer.from(
    JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment.completed', data: { paymentIntent: { id: 'pi_1', amount: '5000' } } }),
  );
  const unicode = Buffer.from(JSON.stringify({ id: 'evt_2', type: 'payment.refunded', data: { note: 'café – 5 000 FCFA ✓' } }));
  const invalidUtf8 = Buffer.concat([Buffer.from('{"id":"evt_3","type":"payment.failed","note":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), event]);
  const sig = (body: Buffer, t: number | string = NOW, secret = SECRET) => hmac(secret, t, body);
  const cases: Omit<Vector, 'expected' | 'testHeader'>[] = [];
  const add = (name: string, body: Buffer, header: string | string[] | null, more: Partial<Pick<Vector, 'secrets' | 'tolerance' | 'now'>> = {}) =>
    cases.push({ name, body: body.toString('base64'), header, secrets: more.secrets ?? SECRET, tolerance: more.tolerance ?? null, now: more.now ?? NOW });

  add('a valid signature', event, `t=${NOW},v1=${sig(event)}`);
  add('a body with non-ASCII text', unicode, `t=${NOW},v1=${sig(unicode)}`);
  add('a body with bytes that are not UTF-8', invalidUtf8, `t=${NOW},v1=${sig(invalidUtf8)}`);
  add('a body starting with a byte-order mark', bom, `t=${NOW},v1=${sig(bom)}`);
  add('upper-case hex', event, `t=${NOW},v1=${sig(event).toUpperCase()}`);
  add('spaces around the parts', event, ` t = ${NOW} ,  v1 = ${sig(event)} `);
  add('tabs around the parts', event, `t=${NOW},\tv1=${sig(event)}\t`);
  add('the parts in another order', event, `v1=${sig(event)},t=${NOW}`);
  add('a header given as several values', event, [`t=${NOW}`, `v1=${sig(event)}`]);
  add('two signatures, the second right (secret being rolled)', event, `t=${NOW},v1=${sig(event, NOW, OTHER)},v1=${sig(event)}`);
  add('two signatures, neither right', event, `t=${NOW},v1=${sig(event, NOW, OTHER)},v1=${sig(event, NOW, OTHER).replace(/^./, '0')}`);
  add('two secrets, the second signing', event, `t=${NOW},v1=${sig(event, NOW, OTHER)}`, { secrets: [SECRET, OTHER] });
  add('two secrets, neither signing', event, `t=${NOW},v1=${sig(event, NOW, 'whsec_other')}`, { secrets: [SECRET, OTHER] });
  add('the wrong secret', event, `t=${NOW},v1=${sig(event, NOW, OTHER)}`);
  add('a changed body', Buffer.from(event.toString().replace('5000', '5001')), `t=${NOW},v1=${sig(event)}`);
  add('a body with a trailing newline', Buffer.concat([event, Buffer.from('\n')]), `t=${NOW},v1=${sig(event)}`);
  add('the timestamp changed', event, `t=${NOW + 1},v1=${sig(event)}`, { now: NOW + 1 });
  add('a v0 signature only', event, `t=${NOW},v0=${sig(event)}`);
  add('an unknown scheme beside v1', event, `t=${NOW},v2=abc,v1=${sig(event)}`);
  add('no timestamp', event, `v1=${sig(event)}`);
  add('no signature', event, `t=${NOW}`);
  add('a short signature', event, `t=${NOW},v1=${sig(event).slice(1)}`);
  add('a long signature', event, `t=${NOW},v1=${sig(event)}0`);
  add('a signature that is not hex', event, `t=${NOW},v1=${sig(event).replace(/^../, 'zz')}`);
  add('a 16-digit timestamp', event, `t=1${String(NOW).padStart(15, '0')},v1=${sig(event)}`);
  add('a negative timestamp', event, `t=-${NOW},v1=${sig(event, `-${NOW}`)}`);
  add('a timestamp with a fraction', event, `t=${NOW}.5,v1=${sig(event, `${NOW}.5`)}`);
  add('a timestamp with leading zeros', event, `t=000${NOW},v1=${sig(event, `000${NOW}`)}`);
  add('two timestamps, the last signed', event, `t=${NOW - 5},t=${NOW},v1=${sig(event)}`);
  add('two timestamps, the first signed', event, `t=${NOW},t=${NOW - 5},v1=${sig(event)}`);
  add('a part without "="', event, `t=${NOW},junk,v1=${sig(event)}`);
  add('keys in upper case', event, `T=${NOW},V1=${sig(event)}`);
  add('an empty header', event, '');
  add('a blank header', event, '   ');
  add('no header', event, null);
  add('no values', event, []);
  add('300 s old: within the default tolerance', event, `t=${NOW - 300},v1=${sig(event, NOW - 300)}`);
  add('301 s old', event, `t=${NOW - 301},v1=${sig(event, NOW - 301)}`);
  add('300 s ahead', event, `t=${NOW + 300},v1=${sig(event, NOW + 300)}`);
  add('301 s ahead', event, `t=${NOW + 301},v1=${sig(event, NOW + 301)}`);
  add('an hour old, tolerance 3600', event, `t=${NOW - 3600},v1=${sig(event, NOW - 3600)}`, { tolerance: 3600 });
  add('a day old, no tolerance check', event, `t=${NOW - 86400},v1=${sig(event, NOW - 86400)}`, { tolerance: 'Infinity' });
  add('1 s old, tolerance 0', event, `t=${NOW - 1},v1=${sig(event, NOW - 1)}`, { tolerance: 0 });
  add('now, tolerance 0', event, `t=${NOW},v1=${sig(event)}`, { tolerance: 0 });
  add('old and badly signed: the time is checked first', event, `t=${NOW - 999},v1=${sig(event, NOW, OTHER)}`);
  for (const [name, text] of [
    ['a body that is not JSON', 'not json'],
    ['a JSON string', '"payment.completed"'],
    ['JSON null', 'null'],
    ['a JSON array', '[{"type":"payment.completed"}]'],
    ['an object without type', '{"id":"evt_4"}'],
    ['a type that is not a string', '{"id":"evt_5","type":5}'],
    ['an empty body', ''],
    ['JSON with white space around it', ' \n{"id":"evt_6","type":"payment.canceled"}\n '],
    ['a deeply nested body', `{"type":"x","d":${'['.repeat(600)}${']'.repeat(600)}}`],
  ] as const) {
    const body = Buffer.from(text);
    add(name, body, `t=${NOW},v1=${sig(body)}`);
  }

  return cases.map((c) => {
    const body = Buffer.from(c.body, 'base64');
    const tolerance = c.tolerance === 'Infinity' ? Infinity : (c.tolerance ?? undefined);
    let expected: Vector['expected'];
    try {
      const e = Caisse.webhooks.constructEvent(body, c.header, c.secrets, { tolerance, now: c.now * 1000 });
      expected = { ok: true, type: e.type, id: e.id ?? null };
    } catch (err) {
      if (!(err instanceof CaisseError)) throw err;
      expected = { ok: false, code: err.code };
    }
    const first = typeof c.secrets === 'string' ? c.secrets : c.secrets[0];
    return { ...c, expected, testHeader: Caisse.webhooks.generateTestHeader({ payload: body, secret: first as string, timestamp: c.now }) };
  });
}
