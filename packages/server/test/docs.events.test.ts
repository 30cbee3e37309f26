import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/modules/events/index.ts';

/** The README's Webhooks section names every event type of the catalogue, and only those. */
describe("the README's list of event types", () => {
  it('is the catalogue', () => {
    const readme = readFileSync(resolve(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
    const section = /## Webhooks\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    const listed = [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...EVENT_TYPES]);
  });
});
