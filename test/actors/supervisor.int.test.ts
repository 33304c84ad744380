/**
 * The supervisor with real worker threads running the scripted fixture worker (test/actors/fixtures):
 * lifecycle, delegation routing, fan-out, hop limit, shared budget, interrupts, failure isolation.
 * Needs `npm run build` first (workers load dist/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { isFuseforksError } from '../../src/core/errors.js';
import { EXTERNAL_QUEUE_CAPACITY } from '../../src/actors/externalQueue.js';
import { agent, until, village, world, type Village } from './support/villageFixture.js';

let open: Village[] = [];
function make(...args: Parameters<typeof village>): Village {
  const v = village(...args);
  open.push(v);
  return v;
}

afterEach(async () => {
  for (const v of open) {
    await v.close();
    expect(v.sup.liveWorkers()).toEqual([]);
  }
  open = [];
});

const abc = () => world([agent('A', ['B', 'C', 'D']), agent('B', ['C']), agent('C'), agent('D')]);
const notes = (v: Village, kind: string) => v.diag.notes.filter((n) => n.kind === kind);
const ofType = <T extends CoreEvent['type']>(v: Village, type: T) =>
  v.events.filter((e): e is Extract<CoreEvent, { type: T }> => e.type === type);
async function startAll(v: Village, ids: string[]): Promise<void> {
  await Promise.all(ids.map((id) => v.sup.startAgent(id)));
}
async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return isFuseforksError(e) ? e.code : String(e);
  }
  return 'no error';
}

describe('supervisor lifecycle', () => {
  it('goes starting → running only after ready, refuses a second start, and stop joins the worker', async () => {
    const v = make(abc());
    await v.sup.startAgent('A');
    expect(ofType(v, 'agentStatusChanged').map((e) => e.status)).toEqual(['starting', 'running']);
    expect(notes(v, 'agent started')[0]?.fields).toMatchObject({ agent: 'A', reaped: false });
    expect(v.sup.statuses()).toContainEqual({ agentId: 'A', status: 'running' });
    expect(v.recorder.messages.at(-1)).toMatchObject({ from: { kind: 'system' }, content: 'Agent A is now running.' });
    expect(await codeOf(v.sup.startAgent('A'))).toBe('ALREADY_RUNNING');
    await v.sup.stopAgent('A');
    expect(notes(v, 'agent stopped')[0]?.fields).toMatchObject({ agent: 'A', joined: true });
    expect(v.sup.liveWorkers()).toEqual([]);
    expect(v.sup.statuses()).toContainEqual({ agentId: 'A', status: 'idle' });
    expect(await codeOf(v.sup.stopAgent('A'))).toBe('NOT_RUNNING');
  });

  it('records a user message first even when the target is not running', async () => {
    const v = make(abc());
    expect(await codeOf(() => v.sup.sendUserMessage('B', 'hello'))).toBe('NOT_RUNNING');
    expect(v.recorder.messages).toHaveLength(1);
    expect(v.recorder.messages[0]).toMatchObject({ from: { kind: 'user' }, to: { kind: 'agent', id: 'B' }, hop: 0 });
  });
});

describe('delegation routing', () => {
  it('carries an ask chain A → B → C and routes each answer back to its asker', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B', 'C']);
    const out = await v.sup.askExternalOutcome('tester', 'ask:B:ask:C:ping');
    expect(out).toEqual({ answer: 'A<answered:B<answered:C:ping>>', state: 'answered', calls: [] });
    const replies = notes(v, 'reply').map((n) => `${n.fields.agent}->${n.fields.to}@${n.fields.hop}`);
    expect(replies).toEqual(['C->B@3', 'B->A@2', 'A->external:tester@1']);
    expect(v.recorder.turns.map((t) => t.agentId)).toEqual(['C', 'B', 'A']);
  });

  it('bundles a 3-agent plan wave in input order', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B', 'C', 'D']);
    const out = await v.sup.askExternalOutcome('tester', 'plan:D,B,C:sleep:20:hi');
    expect(out.answer).toBe('## D\nanswered:D:hi\n\n## B\nanswered:B:hi\n\n## C\nanswered:C:hi');
  });

  it('fans a transfer out to every target with coRecipients, each answering the user', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B', 'C']);
    v.sup.sendUserMessage('A', 'transfer:B,C:hello');
    await until(() => notes(v, 'reply').length === 2, 'two replies');
    expect(notes(v, 'handoff')[0]?.fields).toEqual({ agent: 'A', to: 'B,C', hop: 1 });
    const handed = v.recorder.messages.filter((m) => m.from.kind === 'agent' && m.from.id === 'A');
    expect(handed.map((m) => m.to)).toEqual([{ kind: 'agent', id: 'B' }, { kind: 'agent', id: 'C' }]);
    expect(handed.every((m) => m.coRecipients?.join() === 'B,C')).toBe(true);
    expect(notes(v, 'reply').map((n) => n.fields.to).sort()).toEqual(['user', 'user']);
  });

  it('records but does not deliver a handoff whose next hop reaches maxHops', async () => {
    const v = make(world([agent('A', ['B']), agent('B', ['C']), agent('C')], { maxHops: 2 }));
    await startAll(v, ['A', 'B', 'C']);
    v.sup.sendUserMessage('A', 'transfer:B:transfer:C:hi');
    await until(() => ofType(v, 'hopLimitReached').length === 1, 'hop limit');
    expect(ofType(v, 'hopLimitReached')[0]).toEqual({ type: 'hopLimitReached', agentId: 'B', maxHops: 2 });
    expect(v.recorder.messages.some((m) => m.to.kind === 'agent' && m.to.id === 'C')).toBe(true);
    expect(v.recorder.turns.some((t) => t.agentId === 'C')).toBe(false);
  });

  it('shares one budget pool across a whole plan wave', async () => {
    const v = make(world([agent('A', ['B', 'C', 'D']), agent('B'), agent('C'), agent('D')], { tokenBudget: 10 }));
    await startAll(v, ['A', 'B', 'C', 'D']);
    const out = await v.sup.askExternalOutcome('tester', 'plan:B,C,D:spend:4000:x');
    const states = out.answer.split('\n\n').map((s) => s.split('\n')[1]?.split(':')[0]);
    expect(states.filter((s) => s === 'answered')).toHaveLength(2);
    expect(states.filter((s) => s === 'budget_exhausted')).toHaveLength(1);
    expect(v.recorder.messages.filter((m) => m.content.startsWith('budget spent'))).toHaveLength(1);
  });
});

describe('interrupts', () => {
  it('interruptAll during a wave cuts every turn of the tree and the external ask resolves interrupted', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B', 'C']);
    const asked = v.sup.askExternalOutcome('tester', 'plan:B,C:hang');
    const typing = () => ofType(v, 'agentTyping').filter((e) => e.active).map((e) => e.agentId).sort().join();
    await until(() => typing() === 'A,B,C', 'three turns in flight');
    await v.sup.interruptAll();
    expect((await asked).state).toBe('interrupted');
    await until(() => ofType(v, 'turnInterrupted').length === 3, 'three interrupted turns');
    expect(ofType(v, 'agentFailed')).toEqual([]);
    expect(v.sup.statuses().filter((s) => s.status === 'running')).toHaveLength(3);
  });

  it('folds a queued ask whose asker was cut: no turn, a turn folded note', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B']);
    v.sup.sendUserMessage('B', 'hang');
    await until(() => ofType(v, 'agentTyping').some((e) => e.agentId === 'B' && e.active), 'B busy');
    v.sup.sendUserMessage('A', 'ask:B:late');
    await until(() => v.recorder.messages.some((m) => m.content === 'late'), 'ask queued at B');
    await v.sup.interruptTurn('A');
    await v.sup.interruptTurn('B');
    await until(() => notes(v, 'turn folded').length === 1, 'folded note');
    expect(notes(v, 'turn folded')[0]?.fields).toEqual({ agent: 'B', hop: 1, from: 'A' });
  });

  it('external asks queue in arrival order behind the one in flight and are served one at a time; a full mailbox is EXTERNAL_BUSY', async () => {
    const v = make(abc());
    await startAll(v, ['A']);
    const first = v.sup.askExternalOutcome('one', 'hang');
    await until(() => ofType(v, 'agentTyping').some((e) => e.active), 'A busy');
    const queued = Array.from({ length: EXTERNAL_QUEUE_CAPACITY }, (_, i) => v.sup.askExternalOutcome(`q${i}`, `hi ${i}`));
    expect(await codeOf(v.sup.askExternalOutcome('overflow', 'hi'))).toBe('EXTERNAL_BUSY');
    // Nothing queued was delivered while the first is in flight.
    expect(v.recorder.messages.filter((m) => m.from.kind === 'external').map((m) => m.content)).toEqual(['hang']);
    await v.sup.interruptAll();
    expect((await first).state).toBe('interrupted');
    const answers = await Promise.all(queued);
    expect(answers.map((a) => a.answer)).toEqual(queued.map((_, i) => `A:hi ${i}`));
    // Delivered in arrival order, one after another.
    expect(v.recorder.messages.filter((m) => m.from.kind === 'external').map((m) => m.content)).toEqual(['hang', ...queued.map((_, i) => `hi ${i}`)]);
  });

  it('a queued external ask keeps its own wait limit: it times out while waiting and is never delivered', async () => {
    const v = make(abc());
    await startAll(v, ['A']);
    const first = v.sup.askExternalOutcome('one', 'hang');
    await until(() => ofType(v, 'agentTyping').some((e) => e.active), 'A busy');
    expect(await v.sup.askExternalOutcome('impatient', 'hi', { timeoutMs: 50 })).toEqual({ answer: '', state: 'timed_out', calls: [] });
    expect(v.recorder.messages.some((m) => m.content === 'hi')).toBe(false);
    await v.sup.interruptAll();
    expect((await first).state).toBe('interrupted');
  });
});

describe('failure isolation', () => {
  it('a crashed worker fails only its agent; its asker gets no_answer and the others keep answering', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B', 'C']);
    expect(await v.sup.askExternalOutcome('t', 'ask:B:crash')).toEqual({ answer: expect.stringMatching(/^A<no_answer:\(No answer/), state: 'answered', calls: [] });
    expect(ofType(v, 'agentFailed')[0]).toMatchObject({ agentId: 'B', error: { code: 'WORKER_CRASHED' } });
    expect(v.sup.statuses()).toContainEqual({ agentId: 'B', status: 'failed' });
    expect(v.recorder.messages.some((m) => m.content === 'Agent B stopped after a failure.')).toBe(true);
    expect(await v.sup.askExternalOutcome('t', 'ask:C:hi')).toEqual({ answer: 'A<answered:C:hi>', state: 'answered', calls: [] });
    expect(await v.sup.askExternalOutcome('t', 'ask:B:hi')).toMatchObject({ answer: expect.stringContaining('undeliverable') });
    await v.sup.startAgent('B');
    expect(notes(v, 'agent reaped')[0]?.fields).toEqual({ agent: 'B', had_error: true });
    expect(await v.sup.askExternalOutcome('t', 'ask:B:back')).toEqual({ answer: 'A<answered:B:back>', state: 'answered', calls: [] });
  });

  it('a worker that exits is a crash too', async () => {
    const v = make(abc());
    await startAll(v, ['A', 'B']);
    v.sup.sendUserMessage('B', 'exit');
    await until(() => ofType(v, 'agentFailed').length === 1, 'agentFailed');
    expect(ofType(v, 'agentFailed')[0]?.error.message).toContain('exit code 3');
  });

  it('a fatal LLM error fails the agent with a turn failed note and no restart', async () => {
    const v = make(abc(), { restartCrashed: true });
    await startAll(v, ['A']);
    v.sup.sendUserMessage('A', 'fatal');
    await until(() => v.sup.liveWorkers().length === 0, 'worker gone');
    expect(notes(v, 'turn failed')[0]?.fields).toMatchObject({ agent: 'A', code: 'LLM_API', fatal: true });
    expect(ofType(v, 'agentFailed')[0]?.error.code).toBe('LLM_API');
    expect(v.sup.statuses()).toContainEqual({ agentId: 'A', status: 'failed' });
    expect(await codeOf(() => v.sup.sendUserMessage('A', 'hi'))).toBe('NOT_RUNNING');
  });

  it('restarts a crashed worker when restartCrashed is on', async () => {
    const v = make(abc(), { restartCrashed: true });
    await startAll(v, ['A']);
    v.sup.sendUserMessage('A', 'crash');
    await until(() => notes(v, 'agent started').length === 2, 'restart');
    expect(notes(v, 'agent started')[1]?.fields).toMatchObject({ reaped: true });
    expect(await v.sup.askExternalOutcome('t', 'hi')).toEqual({ answer: 'A:hi', state: 'answered', calls: [] });
  });

  it('never restarts a worker that died before ready', async () => {
    const v = make(abc(), { restartCrashed: true, workerUrl: new URL('./fixtures/bootFailWorker.mjs', import.meta.url) });
    expect(await codeOf(v.sup.startAgent('A'))).toBe('WORKER_CRASHED');
    expect(v.sup.statuses()).toContainEqual({ agentId: 'A', status: 'failed' });
    expect(ofType(v, 'agentStatusChanged').map((e) => e.status)).toEqual(['starting', 'failed']);
    expect(v.recorder.messages).toEqual([]);
    await new Promise((r) => setTimeout(r, 400));
    expect(notes(v, 'agent started')).toEqual([]);
  });
});
