/**
 * The client store's half of "every edit carries its base", over a scripted transport: the revisions of every answer
 * are learnt; a change sends the latest as `If-Match` (or those a form pinned when it was seeded); a refused stale
 * edit asks the person, and overwrite / reload / keep editing each do what they say.
 */
import { describe, expect, it } from 'vitest';
import { createStore, ifMatch, type ConflictChoice, type Transport } from '../../../src/gui/client/lib/store.js';
import type { ErrorPayload } from '../../../src/gui/client/lib/types.js';

interface Sent {
  method: string;
  path: string;
  ifMatch: string | undefined;
}

/** A server holding one document `doc` at revision `rev`; a change with a base that does not name it is refused. */
function server() {
  let rev = 'r1';
  const sent: Sent[] = [];
  const transport: Transport = {
    async request(method, path, _body, headers) {
      sent.push({ method, path, ifMatch: headers?.['if-match'] });
      if (method === 'GET') return { status: 200, body: { text: 'x', revisions: { doc: rev } } };
      const base = (headers?.['if-match'] ?? '').split(',').map((t) => t.trim().replace(/^"|"$/g, ''));
      if (!base.includes(rev)) {
        return { status: 409, body: { code: 'EDIT_CONFLICT', message: 'changed', retryable: false, fault: 'user', details: { doc: 'doc', file: '/f', current: rev } } };
      }
      rev = `r${Number(rev.slice(1)) + 1}`;
      return { status: 200, body: { text: 'saved', revisions: { doc: rev } } };
    },
    events: () => () => undefined,
    later: (fn) => fn(),
    now: () => 0,
  };
  return { transport, sent, bump: () => (rev = `r${Number(rev.slice(1)) + 1}`), rev: () => rev };
}

function chooser(choices: ConflictChoice[]) {
  const asked: ErrorPayload[] = [];
  return { asked, choose: async (wire: ErrorPayload) => (asked.push(wire), choices.shift() ?? 'cancel') };
}

describe('edit bases in the client store', () => {
  it('If-Match lists the revisions as entity tags', () => {
    expect(ifMatch(['a', 'b'])).toBe('"a", "b"');
    expect(ifMatch([])).toBe('');
  });

  it('a change sends the revisions the tab has learnt; a read sends none', async () => {
    const srv = server();
    const store = createStore(srv.transport, (k) => k);
    await store.read('/api/doc');
    await store.mutate('PUT', '/api/doc', { text: 'y' });
    expect(srv.sent).toEqual([
      { method: 'GET', path: '/api/doc', ifMatch: undefined },
      { method: 'PUT', path: '/api/doc', ifMatch: '"r1"' },
    ]);
    // The save's answer is learnt: the next change is made from r2.
    await store.mutate('PUT', '/api/doc', { text: 'z' });
    expect(srv.sent.at(-1)?.ifMatch).toBe('"r2"');
  });

  it('a pinned form sends what it was seeded from, even after the tab learnt a newer revision', async () => {
    const srv = server();
    const pick = chooser(['cancel']);
    const store = createStore(srv.transport, (k) => k, pick.choose);
    await store.read('/api/doc');
    const basis = store.pin();
    srv.bump();
    await store.read('/api/doc');
    expect(await store.mutate('PUT', '/api/doc', { text: 'stale' }, { basis })).toBeNull();
    expect(srv.sent.filter((s) => s.method === 'PUT').map((s) => s.ifMatch)).toEqual(['"r1"']);
    expect(pick.asked.map((w) => w.code)).toEqual(['EDIT_CONFLICT']);
    // Keep editing: no toast, nothing written, the form keeps its basis.
    expect(store.state.toasts).toEqual([]);
    expect(srv.rev()).toBe('r2');
  });

  it('overwrite sends the same change again over the current revision, once the person chose it', async () => {
    const srv = server();
    const pick = chooser(['overwrite']);
    const store = createStore(srv.transport, (k) => k, pick.choose);
    await store.read('/api/doc');
    const basis = store.pin();
    srv.bump();
    const answer = await store.mutate('PUT', '/api/doc', { text: 'mine' }, { basis });
    expect(answer).toMatchObject({ text: 'saved' });
    expect(srv.sent.filter((s) => s.method === 'PUT').map((s) => s.ifMatch)).toEqual(['"r1"', '"r2"']);
    // The pinned basis moved to the saved revision: a second save from the same form is not a conflict.
    await store.mutate('PUT', '/api/doc', { text: 'again' }, { basis });
    expect(pick.asked).toHaveLength(1);
  });

  it('reload re-reads and lets the form re-seed; nothing is sent again', async () => {
    const srv = server();
    const pick = chooser(['reload']);
    const store = createStore(srv.transport, (k) => k, pick.choose);
    await store.read('/api/doc');
    srv.bump();
    let reseeded = 0;
    expect(await store.mutate('PUT', '/api/doc', { text: 'mine' }, { reload: () => (reseeded += 1) })).toBeNull();
    expect(reseeded).toBe(1);
    expect(srv.sent.filter((s) => s.method === 'PUT')).toHaveLength(1);
    expect(srv.sent.at(-1)).toMatchObject({ method: 'GET', path: '/api/state' });
  });

  it('without a conflict dialog a stale edit is an error toast', async () => {
    const srv = server();
    const store = createStore(srv.transport, (k) => k);
    await store.read('/api/doc');
    srv.bump();
    expect(await store.mutate('PUT', '/api/doc', { text: 'mine' })).toBeNull();
    expect(store.state.toasts.map((t) => t.text)).toEqual(['EDIT_CONFLICT: changed']);
  });
});
