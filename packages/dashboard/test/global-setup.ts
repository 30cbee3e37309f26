import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM } from './chromium.ts';
import { chromium } from 'playwright-core';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the Chromium that every file of this run connects to. */
    chromiumEndpoint: string;
  }
}

/**
 * One Chromium for the run, which each file connects to with contexts of its own (as isolated as
 * separate browsers: cookies, storage, cache), rather than a browser launched and closed per
 * file: about 2 CPU-s and 1.5 s a file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
