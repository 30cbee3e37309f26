#!/usr/bin/env node
/* global process */
// Runs the TypeScript sources directly through tsx: no build step between a clone and a run.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
await runCli(process.argv);
