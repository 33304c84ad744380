/**
 * The worker loop over an in-thread MessageChannel pair (STYLE 13): the protocol without threads.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveAgent, type WorkerEnv } from '../../src/actors/workerLoop.js';
import { isDataMessage, PROTOCOL_VERSION, type DeliverMessage, type FromWorker, type ToWorker, type WorkerBatch } from '../../src/actors/protocol.js';
import { exposeOn, remoteOn, type MainSide, type WorkerSide } from '../../src/actors/rpc.js';
import { FuseforksError } from '../../src/core/errors.js';
import type { ExternalToolCaller } from '../../src/core/tools/externalTool.js';
import type { TurnDeps, TurnInput, TurnResult } from '../../src/core/turn/ports.js';
import { agent, template } from './support/villageFixture.js';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

type Script = (input: TurnInput, deps: TurnDeps) => Promise<TurnResult>;

function finish(input: TurnInput, text: string): TurnResult {
  return {
    outcome: { kind: 'finish', text }, replyState: 'answered', replyText: text, stop: { kind: 'completed' },
    exchange: { sent: input.envelope.content, replied: text }, rounds: 1, waves: 0,
    spend: { prompt: 1, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 1, reasoning: 0, effectiveMilli: 5000 },
    lastCallMilli: 5000, elapsedMs: 1,
  };
}

/** A main side that answers nothing the tests here do not use. */
const unusedMainSide: MainSide = {
  callTool: () => Promise.reject(new Error('unused')),
  scan: () => Promise.reject(new Error('unused')),
  cancel: () => undefined,
  reviewPlan: () => Promise.reject(new Error('unused')),
  withdrawReview: () => undefined,
  readRoomLog: () => {
    throw new Error('unused');
  },
};

/** Boots the loop in this thread; returns the main side of the data port, a message inbox and the worker's API. */
async function boot(
  script: Script,
  calls: TurnInput[] = [],
  mainSide: MainSide = unusedMainSide,
  external?: (c: ExternalToolCaller) => void,
  engine: { loadEngineAtStart?: boolean; prepare?: () => Promise<void> } = {},
) {
  const setup = new MessageChannel();
  const data = new MessageChannel();
  ports.push(setup.port1, setup.port2, data.port1, data.port2);
  exposeOn(data.port1, mainSide);
  const worker = remoteOn<WorkerSide>(data.port1);
  const env: WorkerEnv = {
    runTurn: (input, deps) => {
      calls.push(input);
      return script(input, deps);
    },
    makeBackend: () => ({ backend: { name: 'echo', chat: () => Promise.reject(new Error('unused')) } }),
    makeTools: (_init, callExternal) => {
      external?.(callExternal);
      return { specs: () => [], has: () => false, execute: () => Promise.reject(new Error('unused')) };
    },
    budgetFromShared: () => {
      throw new Error('no budget in these tests');
    },
    now: () => 0,
    ...(engine.prepare === undefined ? {} : { prepare: engine.prepare }),
  };
  serveAgent(setup.port2, env);
  const ready = new Promise<unknown>((r) => setup.port1.once('message', r));
  setup.port1.postMessage(
    {
      kind: 'init', protocolVersion: PROTOCOL_VERSION, agent: agent('A'), template: template(), language: 'en',
      maxHops: 8, apiKey: null, backendMode: 'strict', workspaceDir: '/tmp', runApproval: 'required',
      lastCallMilli: 0, planIds: new SharedArrayBuffer(4), port: data.port2, jev: null,
      loadEngineAtStart: engine.loadEngineAtStart ?? false,
    },
    [data.port2],
  );
  const inbox: FromWorker[] = [];
  const waiters: Array<() => void> = [];
  data.port1.on('message', (m: unknown) => {
    if (!isDataMessage(m)) return;
    // The worker posts batches (protocol.ts WorkerBatch); the tests read their messages in order.
    if (m.kind === 'batch') inbox.push(...(m as WorkerBatch).items);
    else inbox.push(m as FromWorker);
    for (const w of waiters.splice(0)) w();
  });
  const next = async <K extends FromWorker['kind']>(kind: K): Promise<Extract<FromWorker, { kind: K }>> => {
    for (;;) {
      const i = inbox.findIndex((m) => m.kind === kind);
      if (i >= 0) return inbox.splice(i, 1)[0] as Extract<FromWorker, { kind: K }>;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const send = (m: ToWorker) => data.port1.postMessage(m);
  let interrupts = 0;
  /** A plain `interrupt` and its acknowledgement. */
  const interrupt = async (envelopeId: string): Promise<boolean> => {
    const id = ++interrupts;
    send({ kind: 'interrupt', id, envelopeId });
    const ack = await next('interruptAck');
    expect(ack.id).toBe(id);
    return ack.cut;
  };
  return { ready: await ready, send, next, inbox, worker, interrupt };
}

function deliver(envelopeId: string, content: string, folded = false, conversation: DeliverMessage['conversation'] = { history: [], summary: null }): DeliverMessage {
  return {
    kind: 'deliver', envelopeId, roster: [], material: { ordinance: '', construct: '', skill: '', memory: '' },
    budget: null, folded, context: { roomLog: null, presence: null }, conversation,
    envelope: { from: { kind: 'user' }, fromLabel: 'User', content, hop: 0, awaitingReply: false },
  };
}

describe('worker loop protocol', () => {
  it('answers init with ready and runs a turn between two typing events', async () => {
    const w = await boot(async (input) => finish(input, 'ok'));
    expect(w.ready).toEqual({ kind: 'ready', protocolVersion: PROTOCOL_VERSION });
    w.send(deliver('e1', 'hi'));
    const done = await w.next('turnDone');
    expect(done).toMatchObject({ envelopeId: 'e1', turnSeq: 1, backend: 'echo', result: { outcome: { text: 'ok' } } });
    const typing = w.inbox.filter((m) => m.kind === 'event').map((m) => (m.kind === 'event' ? m.event : null));
    expect(typing).toEqual([
      { type: 'agentTyping', agentId: 'A', active: true },
      { type: 'agentTyping', agentId: 'A', active: false },
    ]);
  });

  it('loads the engine right after init when told to (the reception), else at the first delivery; a failed early load fails that turn', async () => {
    for (const atStart of [true, false]) {
      const loads: string[] = [];
      const w = await boot(async (input) => finish(input, 'ok'), [], unusedMainSide, undefined, {
        loadEngineAtStart: atStart,
        prepare: async () => void loads.push(atStart ? 'at start' : 'at delivery'),
      });
      expect(loads).toEqual(atStart ? ['at start'] : []);
      w.send(deliver('e1', 'hi'));
      await w.next('turnDone');
      expect(loads.length).toBeGreaterThan(0);
    }
    // The load that failed at start is not swallowed: the first turn meets it.
    let failing: Promise<void> | null = null;
    const broken = await boot(async (input) => finish(input, 'ok'), [], unusedMainSide, undefined, {
      loadEngineAtStart: true,
      prepare: () => (failing ??= Promise.reject(new FuseforksError('COMPUTE_FAILED', 'engine file unreadable', { fix: 'rebuild' }))),
    });
    expect(failing).not.toBeNull();
    broken.send(deliver('e1', 'hi'));
    expect((await broken.next('turnFailed')).error).toMatchObject({ code: 'COMPUTE_FAILED' });
  });

  it('runs each turn on the conversation its delivery carries (it keeps none) and carries lastCallMilli into the next turn', async () => {
    const calls: TurnInput[] = [];
    const w = await boot(async (input) => finish(input, `r${input.turnSeq}`), calls);
    for (let i = 1; i <= 3; i++) {
      w.send(deliver(`e${i}`, `m${i}`));
      await w.next('turnDone');
    }
    expect(calls.map((c) => c.history)).toEqual([[], [], []]);
    const given = { history: [{ sent: 'old', replied: 'kept' }], summary: 'the story so far' };
    w.send(deliver('e4', 'm4', false, given));
    await w.next('turnDone');
    const last = calls.at(-1) as TurnInput;
    expect(last).toMatchObject({ history: given.history, summary: 'the story so far', lastCallMilli: 5000, turnSeq: 4 });
  });

  it('a settings message applies from the next turn: its template, agent, language and hop limit', async () => {
    const calls: TurnInput[] = [];
    const w = await boot(async (input) => finish(input, 'ok'), calls);
    w.send(deliver('e1', 'one'));
    await w.next('turnDone');
    const next = template({ id: 'tpl', model: 'the-new-model' });
    w.send({ kind: 'settings', agent: { ...agent('A'), name: 'Renamed' }, template: next, language: 'ja', maxHops: 3, apiKey: null });
    w.send(deliver('e2', 'two'));
    await w.next('turnDone');
    expect(calls.map((c) => c.template.model)).toEqual([template().model, 'the-new-model']);
    expect(calls[1]).toMatchObject({ agent: { name: 'Renamed' }, language: 'ja', maxHops: 3 });
  });

  it('folds a cut envelope without calling the engine', async () => {
    const calls: TurnInput[] = [];
    const w = await boot(async (input) => finish(input, 'x'), calls);
    w.send(deliver('e1', 'hi', true));
    expect(await w.next('turnFolded')).toEqual({ kind: 'turnFolded', envelopeId: 'e1' });
    expect((await w.next('diag')).notes[0]).toEqual({ kind: 'turn folded', fields: { agent: 'A', hop: 0, from: 'user' }, level: 'info' });
    expect(calls).toEqual([]);
  });

  it('an interrupt naming the envelope aborts the turn signal and is acknowledged', async () => {
    const w = await boot(
      (input, deps) => new Promise((resolve) => deps.signal.addEventListener('abort', () => resolve(finish(input, 'cut')))),
    );
    expect(await w.interrupt('nobody')).toBe(false);
    w.send(deliver('e1', 'hang'));
    await w.next('event');
    expect(await w.interrupt('e1')).toBe(true);
    expect((await w.next('turnDone')).result.outcome).toEqual({ kind: 'finish', text: 'cut' });
  });

  it('routes deliverAndWait through a delegate request and its delegateResult', async () => {
    const w = await boot(async (input, deps) => {
      const r = await deps.ports.deliverAndWait({ to: 'B', message: 'q', hop: 1 }, deps.signal);
      return finish(input, `${r.state}:${r.text}`);
    });
    w.send(deliver('e1', 'ask'));
    const req = await w.next('delegate');
    expect(req).toMatchObject({ envelopeId: 'e1', to: 'B', message: 'q', hop: 1, delegation: 'ask' });
    w.send({ kind: 'delegateResult', requestId: req.requestId, result: { text: 'a', state: 'answered' } });
    expect((await w.next('turnDone')).result.outcome).toEqual({ kind: 'finish', text: 'answered:a' });
  });

  it('a coded error becomes turnFailed with its payload and a history note', async () => {
    const w = await boot(async () => {
      throw new FuseforksError('LLM_API', 'HTTP 400 from the provider');
    });
    w.send(deliver('e1', 'hi'));
    const failed = await w.next('turnFailed');
    expect(failed.error).toMatchObject({ code: 'LLM_API', retryable: false });
    expect(failed.exchange).toEqual({ sent: 'hi', replied: '(failed: LLM_API)' });
  });

  it('a main-thread tool runs over comlink; a coded error there reaches the model with its fix', async () => {
    let call: ExternalToolCaller | null = null;
    const seen: string[] = [];
    const main: MainSide = {
      ...unusedMainSide,
      async callTool(_id, name, args) {
        seen.push(`${name}:${JSON.stringify(args)}`);
        if (name === 'calc__broken') throw new FuseforksError('MCP_FAILED', 'calc is down', { fix: 'restart the calc server' });
        return { body: '42', ok: true };
      },
    };
    const w = await boot(
      async (input, deps) => {
        const a = await (call as ExternalToolCaller)('calc__add', { a: 2 }, deps.signal);
        const b = await (call as ExternalToolCaller)('calc__broken', {}, deps.signal);
        return finish(input, `${a.ok}:${a.body} ${b.ok}:${b.body}`);
      },
      [],
      main,
      (c) => (call = c),
    );
    w.send(deliver('e1', 'go'));
    expect((await w.next('turnDone')).result.outcome).toEqual({ kind: 'finish', text: 'true:42 false:calc is down (restart the calc server)' });
    expect(seen).toEqual(['calc__add:{"a":2}', 'calc__broken:{}']);
  });

  it('an interrupt during a main-thread tool answers the model at once and cancels the call on the main side', async () => {
    let call: ExternalToolCaller | null = null;
    const cancelled: number[] = [];
    let started: (id: number) => void = () => undefined;
    const running = new Promise<number>((r) => (started = r));
    const main: MainSide = {
      ...unusedMainSide,
      callTool: (id) => {
        started(id);
        return new Promise(() => undefined);
      },
      cancel: (id) => void cancelled.push(id),
    };
    const w = await boot(
      async (input, deps) => {
        const r = await (call as ExternalToolCaller)('slow__wait', {}, deps.signal);
        return finish(input, `${r.ok}:${r.body}`);
      },
      [],
      main,
      (c) => (call = c),
    );
    w.send(deliver('e1', 'go'));
    const id = await running;
    expect(await w.interrupt('e1')).toBe(true);
    expect((await w.next('turnDone')).result.outcome).toEqual({ kind: 'finish', text: 'false:interrupted' });
    await vi.waitFor(() => expect(cancelled).toEqual([id]));
  });
});
