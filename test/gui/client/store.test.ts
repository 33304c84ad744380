import { describe, expect, it } from 'vitest';
import { createStore, type Transport } from '../../../src/gui/client/lib/store.js';
import type { CoreEvent, GuiState } from '../../../src/gui/client/lib/types.js';
import { adoptState, applyEvent, emptyView } from '../../../src/gui/client/lib/view.js';

function state(n: number, agents: string[] = ['a']): GuiState {
  return {
    world: {
      agents: agents.map((id, order) => ({ id, name: id, modelTemplateId: 't', ragSources: [], connectedAgents: [], order, workDir: null, maxToolIterations: null, enabledTools: null, hearsRoomLog: true, allowHandoff: true, batchStart: true, roleId: null, groupId: null, hidden: false, planReview: false })),
      groups: [], modelTemplates: [], roles: [], topologyPositions: {}, language: 'en', reception: null, externalName: `read-${n}`, userName: null, tokenBudget: null, askTimeoutSecs: 600, maxHops: 8,
    },
    statuses: agents.map((agentId) => ({ agentId, status: 'idle' as const })),
    hasKey: {}, schedules: [], schedulesBlocked: null, worldReadOnly: null, sessions: { current: null, list: [] }, messages: [], planReviews: [], planWaves: [], tokens: {}, appVersion: '0',
    commandRequests: { requests: [], broken: [] }, tools: { bundled: [], defaults: [], known: [] }, revisions: {},
  };
}

/** A scripted transport: each GET /api/state answers the next number; the test releases answers by hand. */
function scripted() {
  let reads = 0;
  const waiting: Array<() => void> = [];
  const log: string[] = [];
  let onEvent: ((e: CoreEvent) => void) | null = null;
  const transport: Transport = {
    async request(method, path) {
      log.push(`${method} ${path}`);
      if (path === '/api/boot') return { status: 200, body: { state: 'ready' } };
      if (path === '/api/state') {
        const n = (reads += 1);
        await new Promise<void>((resolve) => waiting.push(resolve));
        return { status: 200, body: state(n) };
      }
      if (path === '/api/agents/a/start') return { status: 409, body: { code: 'ALREADY_RUNNING', message: 'a runs', retryable: false } };
      return { status: 200, body: state(99) };
    },
    events(listener) {
      log.push('events');
      onEvent = listener;
      return () => undefined;
    },
    later: (fn) => fn(),
    now: () => 1,
  };
  return { transport, log, release: () => waiting.shift()?.(), pending: () => waiting.length, emit: (e: CoreEvent) => onEvent?.(e), reads: () => reads };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** A store past its first read, subscribed to events. */
async function booted() {
  const s = scripted();
  const store = createStore(s.transport, (k) => k);
  const init = store.init();
  await flush();
  s.release();
  await init;
  return { s, store };
}

describe('store', () => {
  it('subscribes to events before the first read, and only then lifts the overlay', async () => {
    const s = scripted();
    const store = createStore(s.transport, (k) => k);
    const init = store.init();
    await flush();
    expect(s.log).toEqual(['GET /api/boot', 'events', 'GET /api/state']);
    expect(store.state.boot.state).toBe('booting');
    s.release();
    await init;
    expect(store.state.boot.state).toBe('ready');
    expect(store.state.selected).toBe('a');
  });

  it('concurrent refreshes share one read plus one trailing read; the last answer wins', async () => {
    const s = scripted();
    const store = createStore(s.transport, (k) => k);
    const p1 = store.refresh();
    const p2 = store.refresh();
    const p3 = store.refresh();
    await flush();
    s.release();
    await flush();
    s.release();
    await Promise.all([p1, p2, p3]);
    expect(s.reads()).toBe(2);
    expect(store.state.view.server?.world.externalName).toBe('read-2');
  });

  it('a mutation adopts the answer; a refused one toasts the code and re-reads', async () => {
    const s = scripted();
    const store = createStore(s.transport, (k) => k);
    await store.mutate('PUT', '/api/reception', { agentId: null });
    expect(store.state.view.server?.world.externalName).toBe('read-99');
    const failed = store.mutate('POST', '/api/agents/a/start');
    await flush();
    s.release();
    expect(await failed).toBeNull();
    expect(store.state.toasts.map((x) => x.text)).toEqual(['ALREADY_RUNNING: a runs']);
    expect(s.log.at(-1)).toBe('GET /api/state');
  });

  it('a status event that arrives while a read is on its way wins over that read; a later read is taken as is', async () => {
    const { s, store } = await booted();
    const read = store.refresh();
    await flush();
    // The answer below was read before this change reached the page (it says idle).
    s.emit({ type: 'agentStatusChanged', agentId: 'a', status: 'stopping' });
    s.release();
    await read;
    expect(store.state.view.status.a).toBe('stopping');
    const next = store.refresh();
    await flush();
    s.release();
    await next;
    expect(store.state.view.status.a).toBe('idle');
  });

  it('topologyChanged triggers a re-read', async () => {
    const { s, store } = await booted();
    s.emit({ type: 'topologyChanged' });
    await flush();
    expect(s.pending()).toBe(1);
    s.release();
  });
});

describe('applyEvent', () => {
  it('typing comes and goes; a stop clears it and the interrupt-pending flag', () => {
    const view = emptyView();
    applyEvent(view, { type: 'agentTyping', agentId: 'a', active: true }, 1);
    view.interruptPending.a = true;
    expect(view.typing).toEqual({ a: true });
    applyEvent(view, { type: 'agentTyping', agentId: 'a', active: false }, 2);
    expect(view.typing).toEqual({});
    expect(view.interruptPending).toEqual({});
  });

  it('messages append once (by id) and failures are kept per agent with a toast', () => {
    const view = emptyView();
    const message = { id: 'm1', from: { kind: 'user' as const }, to: { kind: 'agent' as const, id: 'a' }, content: 'hi', tokens: 0, tsMs: 1, hop: 0 };
    applyEvent(view, { type: 'messageSent', message }, 1);
    applyEvent(view, { type: 'messageSent', message }, 1);
    expect(view.messages).toHaveLength(1);
    const effect = applyEvent(view, { type: 'agentFailed', agentId: 'a', error: { code: 'LLM_HTTP', message: 'x', retryable: false, fault: 'system' } }, 1);
    expect(view.lastError.a).toBe('LLM_HTTP: x');
    applyEvent(view, { type: 'agentFailed', agentId: 'b', error: { code: 'LLM_RESPONSE_TOO_LARGE', message: 'sent more than 10 bytes', fix: 'raise maxResponseBytes', fault: 'model', retryable: false } }, 1);
    expect(view.lastError.b).toBe('LLM_RESPONSE_TOO_LARGE: sent more than 10 bytes — raise maxResponseBytes');
    expect(effect.toast?.level).toBe('error');
  });

  it('a held plan wave appearing or going re-reads the state (the pane shows the server list)', () => {
    const view = emptyView();
    const tasks = [{ to: 'b', message: 'part b' }];
    expect(applyEvent(view, { type: 'planReviewRequested', planId: 1, agentId: 'a', wave: 1, tasks }, 1).refresh).toBe(true);
    expect(applyEvent(view, { type: 'planReviewResolved', planId: 1, agentId: 'a', approved: false }, 1).refresh).toBe(true);
    expect(applyEvent(view, { type: 'agentStatsUpdated', agentId: 'a', uptimeSecs: 1, totalTokens: 5, promptTokens: 4, cachedTokens: 0 }, 1).refresh).toBe(false);
  });

  it('a plan wave starting, a task resolving and the wave finishing re-read the state (the work-status grid)', () => {
    const view = emptyView();
    expect(applyEvent(view, { type: 'planWaveStarted', planId: 1, agentId: 'a', wave: 1, tasks: [{ to: 'b', msgChars: 6 }], startedAtMs: 0 }, 1).refresh).toBe(true);
    expect(applyEvent(view, { type: 'planTaskResolved', planId: 1, to: 'b', state: 'answered', elapsedMs: 3 }, 1).refresh).toBe(true);
    expect(applyEvent(view, { type: 'planWaveFinished', planId: 1, bundleChars: 9, elapsedMs: 4 }, 1).refresh).toBe(true);
  });

  it('a re-read answered while a reply was recorded keeps that reply; a run re-reads (the approvals badge)', () => {
    const view = emptyView();
    const msg = (id: string, tsMs: number) => ({ id, from: { kind: 'agent' as const, id: 'a' }, to: { kind: 'user' as const }, content: id, tokens: 0, tsMs, hop: 1 });
    applyEvent(view, { type: 'messageSent', message: msg('m1', 1) }, 1);
    applyEvent(view, { type: 'messageSent', message: msg('m2', 5) }, 5);
    // The server read its tail before m2 was recorded.
    adoptState(view, { ...state(1), messages: [msg('m1', 1)] });
    expect(view.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    // A later read has both; an event older than the server's newest is not resurrected.
    adoptState(view, { ...state(2), messages: [msg('m1', 1), msg('m2', 5), msg('m3', 9)] });
    expect(view.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(applyEvent(view, { type: 'toolInvoked', agentId: 'a', tool: 'run', ok: false, reason: { kind: 'omitted' } }, 9).refresh).toBe(true);
    expect(applyEvent(view, { type: 'toolInvoked', agentId: 'a', tool: 'grep', ok: true, reason: { kind: 'omitted' } }, 9).refresh).toBe(false);
  });

  it('token totals come with every read (a reloaded page shows them); a newer event total is not undone by an older read', () => {
    const view = emptyView();
    adoptState(view, { ...state(1), tokens: { a: 100 } });
    expect(view.tokens).toEqual({ a: 100 });
    applyEvent(view, { type: 'agentStatsUpdated', agentId: 'a', uptimeSecs: 2, totalTokens: 180, promptTokens: 150, cachedTokens: 0 }, 2);
    adoptState(view, { ...state(2), tokens: { a: 100, b: 7 } });
    expect(view.tokens).toEqual({ a: 180, b: 7 });
  });

  it('a status that leaves running clears typing', () => {
    const view = emptyView();
    applyEvent(view, { type: 'agentTyping', agentId: 'a', active: true }, 1);
    applyEvent(view, { type: 'agentStatusChanged', agentId: 'a', status: 'idle' }, 1);
    expect(view.typing).toEqual({});
  });
});
