/**
 * comlink between threads (rpc.ts) over an in-thread MessageChannel: coded errors cross as FuseforksErrors,
 * other errors keep their message, an abort settles a wait at once, and open calls fail when the peer is gone.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ABORTED, CallsInFlight, exposeOn, raceAbort, remoteOn } from '../../src/actors/rpc.js';
import { workerCrashed } from '../../src/actors/workerErrors.js';
import { FuseforksError } from '../../src/core/errors.js';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

interface Api {
  fails(kind: string): Promise<string>;
  returnsError(): FuseforksError;
  echo(value: string): string;
}

function pair(): { remote: ReturnType<typeof remoteOn<Api>> } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const api: Api = {
    async fails(kind) {
      if (kind === 'other copy') {
        // What the agent worker's engine bundle throws: its own copy of the class (scripts/bundleWorkers.mjs).
        const OtherCopy = class FuseforksError extends Error {
          constructor(readonly code: string, message: string, readonly fix?: string) {
            super(message);
          }
        };
        throw new OtherCopy('LLM_API', 'the key was refused', 'set the key again');
      }
      if (kind === 'coded') {
        throw new FuseforksError('MCP_FAILED', 'the calc server went away', { fix: 'restart it', details: { server: 'calc' }, agentId: 'A' });
      }
      throw new TypeError('plain failure');
    },
    returnsError: () => new FuseforksError('COMPUTE_FAILED', 'returned, not thrown', { fix: 'try again' }),
    echo: (value) => value,
  };
  exposeOn(port2, api);
  return { remote: remoteOn<Api>(port1) };
}

describe('comlink between threads', () => {
  it('a thrown FuseforksError arrives as one, with code, fix, details and agent', async () => {
    const { remote } = pair();
    const error: unknown = await remote.fails('coded').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuseforksError);
    expect(error).toMatchObject({ code: 'MCP_FAILED', message: 'the calc server went away', fix: 'restart it', details: { server: 'calc' }, agentId: 'A', retryable: false });
  });

  it("a FuseforksError from another copy of the class (the engine bundle's) crosses by its shape, with its code", async () => {
    const { remote } = pair();
    const error: unknown = await remote.fails('other copy').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuseforksError);
    expect(error).toMatchObject({ code: 'LLM_API', message: 'the key was refused', fix: 'set the key again' });
  });

  it('a returned FuseforksError arrives as one; other errors keep their message', async () => {
    const { remote } = pair();
    const returned = await remote.returnsError();
    expect(returned).toBeInstanceOf(FuseforksError);
    expect(returned).toMatchObject({ code: 'COMPUTE_FAILED', fix: 'try again', retryable: true });
    await expect(remote.fails('plain')).rejects.toMatchObject({ message: 'plain failure', name: 'TypeError' });
    expect(await remote.echo('x')).toBe('x');
  });

  it('raceAbort settles with ABORTED as soon as the signal fires, and with the value otherwise', async () => {
    const controller = new AbortController();
    const never = new Promise<string>(() => undefined);
    const raced = raceAbort(never, controller.signal);
    controller.abort();
    expect(await raced).toBe(ABORTED);
    expect(await raceAbort(Promise.resolve('v'), new AbortController().signal)).toBe('v');
    expect(await raceAbort(Promise.resolve('v'), controller.signal)).toBe(ABORTED);
  });

  it('CallsInFlight fails every open call, and every later one, with the crash', async () => {
    const calls = new CallsInFlight();
    const open = calls.track(new Promise<string>(() => undefined));
    const done = await calls.track(Promise.resolve('ok'));
    expect(done).toBe('ok');
    expect(calls.size).toBe(1);
    calls.rejectAll(workerCrashed('A', 'exit code 4'));
    await expect(open).rejects.toMatchObject({ code: 'WORKER_CRASHED', agentId: 'A' });
    await expect(calls.track(Promise.resolve('late'))).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
    expect(calls.size).toBe(0);
  });
});
