import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RandomBytes, systemRandom } from '../../../platform/crypto.ts';

/** The secrets the sandbox and test mode's connectors share (the others' sandboxes take any credentials). */
export interface SandboxSecrets {
  /** What the Wave sandbox signs its webhooks with, and test mode's Wave connector checks. */
  waveWebhookSecret: string;
}

/** In the data directory (CAISSE_DATA_DIR), beside `master.key`. */
export const SANDBOX_SECRETS_FILE = 'sandbox-secrets.json';

/** Secrets no one else knows, for a sandbox that shares them with no file (an in-process one in tests). */
export function newSandboxSecrets(random: RandomBytes = systemRandom): SandboxSecrets {
  return { waveWebhookSecret: `wave_sandbox_whsec_${random(32).toString('base64url')}` };
}

/**
 * The data directory's sandbox secrets, made on first use: `caisse sandbox` and the gateway (each
 * of its processes) read the same file, so they agree across restarts, and each data directory
 * has its own. Written owner-only, under a temporary name and then linked into place, so two
 * processes starting at once keep the first one's and no reader sees half a file.
 */
export function sandboxSecrets(dataDir: string, random: RandomBytes = systemRandom): SandboxSecrets {
  const file = join(dataDir, SANDBOX_SECRETS_FILE);
  const existing = readSecrets(file);
  if (existing !== undefined) return existing;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.${random(6).toString('hex')}`;
    writeFileSync(temporary, `${JSON.stringify(newSandboxSecrets(random), null, 2)}\n`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(temporary);
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
  const secret = (parsed as Partial<SandboxSecrets> | undefined)?.waveWebhookSecret;
  if (typeof secret !== 'string' || secret.length < 16) {
    throw new Error(`${file} is not the sandbox's secrets: delete it and a new one is made (the sandbox and the gateway must then both restart)`);
  }
  return { waveWebhookSecret: secret };
}
