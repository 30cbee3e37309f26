import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MountedSandbox } from '../connectors.definition.ts';
import type { SandboxAnswer, SandboxFaultSwitches } from './sandbox.http.ts';

/** A provider's sandbox that answers on the shared server itself (the redirect providers'). */
export interface InProcessSandbox {
  handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  setFaults(change: Partial<SandboxFaultSwitches>): unknown;
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

/** Its mount: requests under its path go to it, and tests get it as it is. */
export function inProcessMount<H extends InProcessSandbox>(sandbox: H): MountedSandbox<H> {
  return {
    handle: sandbox,
    serve: (method, path, req, res) => sandbox.handle(method, path, req, res),
    settle: () => sandbox.settle(),
    tick: () => sandbox.tick(),
    setFaults: (on) => void sandbox.setFaults(Object.fromEntries(on.map((f) => [f, true]))),
    close: () => sandbox.close(),
  };
}
