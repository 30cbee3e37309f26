import { afterEach, describe, expect, it, vi } from 'vitest';
import { onParentGone } from '../src/runtime.ts';

/**
 * A server npm started stops when npm is gone (issue 58), judged against the process that
 * started it, as read when the server began: npm may be gone before the shutdown is installed
 * (after the listen), and the process that adopted the orphan must not count as its parent.
 */
const NPM = { npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' };

afterEach(() => {
  vi.useRealTimers();
});

describe('onParentGone', () => {
  it('stops at the first look when the process that started it was gone before the watch began', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    // Started by a process that is no longer the parent: the server was adopted in between.
    onParentGone(stop, NPM, process.ppid + 1);
    expect(stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(stop).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(5_000);
    expect(stop).toHaveBeenCalledOnce();
  });

  it('runs on while the process that started it is its parent, and without npm never looks', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    onParentGone(stop, NPM, process.ppid);
    onParentGone(stop, {}, process.ppid + 1);
    vi.advanceTimersByTime(60_000);
    expect(stop).not.toHaveBeenCalled();
  });

  it('by default judges against the parent read when the server module loaded, not at the call', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    // This process's parent has not changed since the module loaded: nothing to stop.
    onParentGone(stop, NPM);
    vi.advanceTimersByTime(5_000);
    expect(stop).not.toHaveBeenCalled();
  });
});
