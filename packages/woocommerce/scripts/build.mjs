#!/usr/bin/env node
/* global Buffer, console, process */
// `npm run build:woocommerce`: the installable plugin, dist/caisse-woocommerce.zip (upload it in
// WordPress: Plugins → Add New → Upload). It holds the plugin's files, the PHP client
// (packages/php) under lib/caisse-php, and the French translations as WordPress's PHP translation
// file (languages/caisse-woocommerce-fr_FR.l10n.php, made from languages/fr_FR.json). Fails when
// a text of the plugin has no French translation, or a translation no text.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

const PLUGIN = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT = join(PLUGIN, '..', 'php');
const SLUG = 'caisse-woocommerce';
const DOMAIN = 'caisse-woocommerce';

const walk = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));

/** The plugin's texts: the first argument of __(), esc_html__() … whose domain is the plugin's. */
export function pluginTexts() {
  const texts = new Set();
  const call = new RegExp(
    `\\b(?:__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\\(\\s*(?:/\\*.*?\\*/\\s*)?'((?:[^'\\\\]|\\\\.)*)'\\s*,\\s*'${DOMAIN}'\\s*\\)`,
    'gs',
  );
  for (const file of [join(PLUGIN, `${SLUG}.php`), ...walk(join(PLUGIN, 'includes'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(call)) texts.add(m[1].replace(/\\(['\\])/g, '$1'));
  }
  return texts;
}

const phpString = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function translations() {
  const fr = JSON.parse(readFileSync(join(PLUGIN, 'languages', 'fr_FR.json'), 'utf8'));
  const texts = pluginTexts();
  const missing = [...texts].filter((t) => typeof fr[t] !== 'string' || fr[t] === '');
  const unused = Object.keys(fr).filter((t) => !texts.has(t));
  if (missing.length > 0 || unused.length > 0) {
    console.error(`build:woocommerce: languages/fr_FR.json is out of step with the plugin's texts`);
    for (const t of missing) console.error(`  missing: ${t}`);
    for (const t of unused) console.error(`  unused:  ${t}`);
    process.exit(1);
  }
  const messages = Object.entries(fr)
    .map(([en, tr]) => `    ${phpString(en)} => ${phpString(tr)},`)
    .join('\n');
  return `<?php\n// Made by npm run build:woocommerce from languages/fr_FR.json.\nreturn [\n  'domain' => '${DOMAIN}',\n  'language' => 'fr_FR',\n  'messages' => [\n${messages}\n  ],\n];\n`;
}

/** A zip of `entries` (path → bytes), deflated, with a fixed date so that the same sources make the same zip. */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  const DOS_TIME = 0;
  const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;
  for (const [path, data] of entries) {
    const name = Buffer.from(path, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    // The fields the local header (at 4) and the central directory entry (at 6) share, in order.
    const shared = (buf, at) => {
      buf.writeUInt16LE(20, at); // version needed
      buf.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      buf.writeUInt16LE(8, at + 4); // deflate
      buf.writeUInt16LE(DOS_TIME, at + 6);
      buf.writeUInt16LE(DOS_DATE, at + 8);
      buf.writeUInt32LE(crc, at + 10);
      buf.writeUInt32LE(packed.length, at + 14);
      buf.writeUInt32LE(data.length, at + 18);
      buf.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by Unix, 3.0
    shared(central, 6);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const files = [];
const add = (from, to) => files.push([`${SLUG}/${to}`, readFileSync(from)]);
for (const f of [`${SLUG}.php`, 'readme.txt', 'uninstall.php']) add(join(PLUGIN, f), f);
for (const dir of ['includes', 'assets']) for (const f of walk(join(PLUGIN, dir))) add(f, relative(PLUGIN, f));
for (const f of ['autoload.php', 'composer.json', 'README.md', 'LICENSE']) {
  try {
    add(join(CLIENT, f), `lib/caisse-php/${f}`);
  } catch {
    // LICENSE: the repository's, below.
  }
}
for (const f of walk(join(CLIENT, 'src'))) add(f, `lib/caisse-php/${relative(CLIENT, f)}`);
add(join(PLUGIN, '..', '..', 'LICENSE'), 'LICENSE');
files.push([`${SLUG}/languages/${DOMAIN}-fr_FR.l10n.php`, Buffer.from(translations())]);
files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const out = join(PLUGIN, 'dist', `${SLUG}.zip`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, zip(files));
console.log(`build:woocommerce: ${relative(process.cwd(), out)} (${files.length} files)`);
