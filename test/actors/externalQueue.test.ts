/**
 * The external endpoint's mailbox as a pure queue: served one at a time in arrival order, EXTERNAL_BUSY only when
 * `capacity` already wait, each waiter's own wait limit, a caller that goes away leaves the queue, closing refuses.
 */
import { describe, expect, it } from 'vitest';
import { ExternalQueue, type ExternalTicket } from '../../src/actors/externalQueue.js';

const served = (t: ExternalTicket): (() => void) => {
  if (t.kind !== 'served') throw new Error(`expected served, got ${t.kind}`);
  return t.release;
};

describe('ExternalQueue', () => {
  it('serves one at a time, in arrival order', async () => {
    const q = new ExternalQueue(16);
    const order: number[] = [];
    const first = served(await q.acquire(10_000));
    const later = [1, 2, 3].map((i) => q.acquire(10_000).then((t) => (order.push(i), served(t))));
    expect(q.size).toBe(3);
    first();
    for (const p of later) (await p)();
    expect(order).toEqual([1, 2, 3]);
    expect(q.size).toBe(0);
    served(await q.acquire(10))(); // the gate is open again
  });

  it('refuses with EXTERNAL_BUSY only when capacity requests already wait', async () => {
    const q = new ExternalQueue(2);
    const first = served(await q.acquire(10_000));
    const a = q.acquire(10_000);
    const b = q.acquire(10_000);
    await expect(q.acquire(10_000)).rejects.toMatchObject({ code: 'EXTERNAL_BUSY', details: { waiting: 2, capacity: 2 } });
    first();
    served(await a)();
    served(await b)();
  });

  it('a waiter whose own limit runs out leaves as expired; the others keep their place', async () => {
    const q = new ExternalQueue(16);
    const first = served(await q.acquire(10_000));
    const short = q.acquire(20);
    const long = q.acquire(10_000);
    expect(await short).toEqual({ kind: 'expired' });
    expect(q.size).toBe(1);
    first();
    served(await long)();
  });

  it('an aborted caller leaves the queue; close refuses the waiting and every later request', async () => {
    const q = new ExternalQueue(16);
    const first = served(await q.acquire(10_000));
    const controller = new AbortController();
    const gone = q.acquire(10_000, controller.signal);
    const stays = q.acquire(10_000);
    controller.abort();
    expect(await gone).toEqual({ kind: 'aborted' });
    q.close();
    expect(await stays).toEqual({ kind: 'closed' });
    expect(await q.acquire(10_000)).toEqual({ kind: 'closed' });
    first();
  });
});
