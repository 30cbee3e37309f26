import { accessSync, constants as fsConstants } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Reading the environment: one typed reader per kind of variable, each throwing a ConfigError
 * that names the variable it refused (config.ts puts the readers together).
 */

/** How the server runs (development or production), not to be confused with an API key's KeyMode (test or live). */
export type RunMode = 'development' | 'production';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(name, `must use https:// or http://, got ${url.protocol}//`);
  return raw.replace(/\/+$/, '');
}

/** A URL variable or its older alias (`fromOld` turns the alias's value into the new one's meaning). */
export function aliased(env: Env, name: string, old: string, fromOld: (value: string) => string): string | undefined {
  const current = env[name] ? httpUrl(env, name, '') : undefined;
  const former = env[old] ? fromOld(httpUrl(env, old, '')) : undefined;
  if (current !== undefined && former !== undefined && current !== former)
    throw new ConfigError(name, `and its older name ${old} are both set, to different values: keep ${name}`);
  return current ?? former;
}

export function required(env: Env, name: string, why: string): string {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') throw new ConfigError(name, `is required ${why}`);
  return raw.trim();
}

/** A credential sent in an HTTP header: printable ASCII, no spaces. Its value is never quoted back. */
export function credential(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{1,256}$/.test(raw)) throw new ConfigError(name, 'must be printable ASCII without spaces (at most 256 characters)');
  return raw;
}

export function readableFile(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const path = resolve(raw);
  try {
    accessSync(path, fsConstants.R_OK);
  } catch {
    throw new ConfigError(name, `cannot read the file ${path}`);
  }
  return path;
}
