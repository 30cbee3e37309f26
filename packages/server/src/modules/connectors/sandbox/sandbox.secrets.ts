import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RandomBytes, systemRandom } from '../../../platform/crypto.ts';
import type { AnyConnectorDefinition } from '../connectors.definition.ts';

/**
 * The secrets the sandbox and test mode's connectors share, by registry name and then by the name
 * each connector's definition declares (`sandbox.secrets`); a connector that declares none has
 * none (its sandbox takes any credentials).
 */
export type SandboxSecrets = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** In the data directory (CAISSE_DATA_DIR), beside `master.key`. */
export const SANDBOX_SECRETS_FILE = 'sandbox-secrets.json';

/** A value no one else knows, as long as any a real provider gives. */
const MIN_LENGTH = 16;

/**
 * `given`, with a new value, no one else knows, for each secret of these definitions it lacks:
 * for a sandbox that shares them with no file (an in-process one in tests), or a connector
 * registered after the file was made.
 */
export function completeSandboxSecrets(
  given: SandboxSecrets,
  definitions: readonly AnyConnectorDefinition[],
  random: RandomBytes = systemRandom,
): SandboxSecrets {
  const out: Record<string, Record<string, string>> = {};
  for (const [name, own] of Object.entries(given)) out[name] = { ...own };
  for (const { description, sandbox } of definitions) {
    for (const spec of sandbox.secrets ?? []) {
      const own = (out[description.name] ??= {});
      own[spec.name] ??= `${spec.prefix}${random(32).toString('base64url')}`;
    }
  }
  return out;
}

/**
 * The data directory's sandbox secrets, made on first use: `caisse sandbox` and the gateway (each
 * of its processes) read the same file, so they agree across restarts, and each data directory
 * has its own. Written owner-only, under a temporary name and then linked into place, so two
 * processes starting at once keep the first one's and no reader sees half a file. A connector
 * that declares a secret the file lacks has it added (renamed into place).
 */
export function keepSandboxSecrets(dataDir: string, definitions: readonly AnyConnectorDefinition[], random: RandomBytes = systemRandom): SandboxSecrets {
  const file = join(dataDir, SANDBOX_SECRETS_FILE);
  const existing = readSecrets(file);
  const complete = completeSandboxSecrets(existing ?? {}, definitions, random);
  if (existing !== undefined && JSON.stringify(complete) === JSON.stringify(existing)) return existing;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.${random(6).toString('hex')}`;
    writeFileSync(temporary, `${JSON.stringify(complete, null, 2)}\n`, { mode: 0o600 });
    if (existing !== undefined) renameSync(temporary, file);
    else {
      try {
        linkSync(temporary, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        unlinkSync(temporary);
      }
    }
  } catch (err) {
    throw new Error(`cannot keep the sandbox's secrets in ${file} (CAISSE_DATA_DIR): ${(err as Error).message}`);
  }
  const made = readSecrets(file);
  if (made === undefined) throw new Error(`cannot read the sandbox's secrets back from ${file}`);
  return made;
}

function readSecrets(file: string): SandboxSecrets | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the sandbox's secrets in ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isObject(parsed)) throw damaged(file);
  // A top-level value that is not a connector's secrets is an earlier layout's (one flat secret,
  // before connectors declared theirs): left out, so that each connector's are made anew.
  const own = Object.entries(parsed).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]));
  if (!own.every(([, values]) => Object.values(values).every((v) => typeof v === 'string' && v.length >= MIN_LENGTH))) throw damaged(file);
  return Object.fromEntries(own) as SandboxSecrets;
}

function damaged(file: string): Error {
  return new Error(`${file} is not the sandbox's secrets: delete it and a new one is made (the sandbox and the gateway must then both restart)`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
