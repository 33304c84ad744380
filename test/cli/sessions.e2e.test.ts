/**
 * `fuseforks-cli sessions list|show|export|fork|summarize` (built binary, loopback stub, real LMDB and workers):
 * the export is byte-equal to the GUI's export route on the same store, a fork makes the same conversation as the
 * GUI's fork route, list/show/export read beside a running GUI while fork and summarize refuse there, and a
 * summarize writes the summary record and folds the history (the next request's prompt has the summary and not
 * the folded exchange; the export keeps it).
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { requireGuiBuild, request, startGui, waitBoot } from '../gui/support/guiChild.js';
import { cliBudget, describeRun, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();

function village(): string {
  return makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }], credential: 'not_required' });
}

async function ask(dir: string, text: string, more: string[] = []): Promise<string> {
  const run = await runCli(['ask', '-d', dir, '--start', 'reception', '--json', '-q', ...more, text]);
  expect(run.code, describeRun(run)).toBe(0);
  return (JSON.parse(run.stdout) as { sessionId: string }).sessionId;
}

async function json<T>(args: string[]): Promise<T> {
  const run = await runCli([...args, '--json']);
  expect(run.code, describeRun(run)).toBe(0);
  return JSON.parse(run.stdout) as T;
}

interface Show {
  session: { id: string; recordCount: number; forkedFrom?: { sessionId: string; atSeq: number } };
  counts: { records: number; messages: number; exchanges: number; summaries: number };
  lastSeq: number;
  messages: Array<{ seq: number; content: string; from: { kind: string } }>;
  summaries: Array<{ seq: number; agentId: string; coversUpToSeq: number; text: string }>;
}

/** An export's record lines, and its first line without what differs between two forks (id and times). */
function exportShape(text: string): { head: unknown; records: string[] } {
  const [first, ...records] = text.trimEnd().split('\n');
  const head = JSON.parse(first!) as { session: { id: string; meta: Record<string, unknown> } };
  const { createdAtMs: _c, updatedAtMs: _u, ...meta } = head.session.meta;
  return { head: meta, records };
}

describe('fuseforks-cli sessions', () => {
  it('lists, shows, exports and forks as the GUI does; reads beside the GUI and refuses to change what it holds', async () => {
    requireGuiBuild();
    stub().respond(() => reply.text('Plenty.'));
    const dir = village();
    const first = await ask(dir, 'How much is the first one?');
    const second = await ask(dir, 'And the second?');

    const list = await json<{ sessions: Array<{ id: string; recordCount: number }> }>(['sessions', 'list', '-d', dir]);
    expect(list.sessions.map((s) => s.id)).toEqual([second, first]);

    const show = await json<Show>(['sessions', 'show', first, '-d', dir]);
    expect(show.session.id).toBe(first);
    expect(show.counts).toMatchObject({ records: list.sessions[1]!.recordCount, exchanges: 1, summaries: 0 });
    const question = show.messages.find((m) => m.from.kind === 'external');
    expect(question?.content).toBe('How much is the first one?');
    expect(show.messages.map((m) => m.content)).toContain('Plenty.');
    const text = await runCli(['sessions', 'show', first, '-d', dir, '-q']);
    expect(text.stdout).toContain(`#${question!.seq}  `);
    expect(text.stdout).toContain('external:fuseforks-cli → desk: How much is the first one?');

    // The GUI gets its own copy of the same store (its boot records "now running" into the latest conversation,
    // so the comparisons use the first one).
    const guiDir = temps.make();
    cpSync(dir, guiDir, { recursive: true });
    const exported = await json<{ path: string; records: number }>(['sessions', 'export', first, '-d', dir]);
    expect(exported).toEqual({ format: 1, path: join(dir, 'workspace/exports', `${first}.jsonl`), records: show.counts.records });
    const cliExport = readFileSync(exported.path);
    const piped = await runCli(['sessions', 'export', first, '-d', dir, '--stdout']);
    expect(piped.code, describeRun(piped)).toBe(0);
    expect(Buffer.from(piped.stdout)).toEqual(cliExport);

    const atSeq = question!.seq;
    const forked = await json<{ id: string; recordCount: number; forkedFrom: unknown }>(['sessions', 'fork', first, '-d', dir, '--at', String(atSeq)]);
    expect(forked.forkedFrom).toEqual({ sessionId: first, atSeq });
    expect(forked.recordCount).toBe(atSeq + 1);

    const gui = await startGui(guiDir);
    try {
      expect((await waitBoot(gui.port, gui.token)).state).toBe('ready');
      const headers = { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` };
      const guiExported = await request(gui.port, 'POST', `/api/sessions/${first}/export`, { headers, body: {} });
      expect(guiExported.status).toBe(200);
      const guiPath = (guiExported.body as { path: string }).path;
      expect(guiPath).toBe(join(guiDir, 'workspace/exports', `${first}.jsonl`));
      expect(readFileSync(guiPath)).toEqual(cliExport);

      const guiFork = await request(gui.port, 'POST', `/api/sessions/${first}/fork`, { headers, body: { atSeq } });
      expect(guiFork.status).toBe(200);
      const guiForkId = (guiFork.body as { createdId: string }).createdId;

      // Beside the running GUI: list, show and export read the store read-only; the GUI's fork is there.
      const beside = await json<{ sessions: Array<{ id: string }> }>(['sessions', 'list', '-d', guiDir]);
      expect(beside.sessions.map((s) => s.id)).toContain(guiForkId);
      const guiForkExport = await runCli(['sessions', 'export', guiForkId, '-d', guiDir, '--stdout']);
      expect(guiForkExport.code, describeRun(guiForkExport)).toBe(0);
      const cliForkExport = await runCli(['sessions', 'export', forked.id, '-d', dir, '--stdout']);
      expect(exportShape(guiForkExport.stdout)).toEqual(exportShape(cliForkExport.stdout));
      expect(exportShape(cliForkExport.stdout).records).toHaveLength(atSeq + 1);
      const besideFile = await json<{ path: string }>(['sessions', 'export', first, '-d', guiDir]);
      expect(readFileSync(besideFile.path)).toEqual(cliExport);
      expect((await json<Show>(['sessions', 'show', guiForkId, '-d', guiDir])).session.forkedFrom).toEqual({ sessionId: first, atSeq });

      // What changes the store refuses politely while the GUI holds the village, and changes nothing.
      for (const args of [['sessions', 'fork', first], ['sessions', 'summarize']]) {
        const refused = await runCli([...args, '-d', guiDir]);
        expect(refused.code, describeRun(refused)).toBe(4);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain(`${args.slice(0, 2).join(' ')} changes this village, and it is open in another process`);
        expect(refused.stderr).toMatch(/fix: Stop that process/);
      }
      expect((await json<{ sessions: unknown[] }>(['sessions', 'list', '-d', guiDir])).sessions).toHaveLength(beside.sessions.length);
    } finally {
      expect(await gui.stop()).toBe(0);
    }
  }, cliBudget(20));

  it('summarize writes the summary and folds the history: the next prompt carries it, not the folded exchange', async () => {
    const dir = village();
    stub().respond(() => reply.text('Plenty of apples.'));
    const session = await ask(dir, 'QUESTION-ONE: how many apples?');

    const SUMMARY = 'SUMMARY-TEXT: the user asked about apples; desk said plenty.';
    stub().reset();
    stub().respond(() => reply.text(SUMMARY));
    const report = await json<{
      sessionId: string;
      coversUpToSeq: number;
      agents: Array<{ agentId: string; folded: boolean; foldedMsgs: number; summaryChars: number }>;
      skipped: { nothing: string[]; failed: unknown[] };
    }>(['sessions', 'summarize', '-d', dir]);
    expect(report.sessionId).toBe(session);
    expect(report.agents).toEqual([expect.objectContaining({ agentId: 'desk', folded: true, summaryChars: SUMMARY.length })]);
    expect(report.agents[0]!.foldedMsgs).toBeGreaterThan(0);
    expect(report.skipped.failed).toEqual([]);
    // One call, without tools, carrying the history it folds.
    expect(stub().count).toBe(1);
    const call = stub().requests[0]!;
    expect(call.body?.tools).toBeUndefined();
    expect(JSON.stringify(call.body)).toContain('QUESTION-ONE');

    const show = await json<Show>(['sessions', 'show', session, '-d', dir]);
    expect(show.summaries).toEqual([{ seq: expect.any(Number), agentId: 'desk', coversUpToSeq: report.coversUpToSeq, text: SUMMARY }]);

    // Nothing new since: no call, desk has nothing to fold.
    stub().reset();
    const again = await json<{ agents: unknown[]; skipped: { nothing: string[] } }>(['sessions', 'summarize', '-d', dir, '--agent', 'desk']);
    expect(again).toMatchObject({ agents: [], skipped: { nothing: ['desk'] } });
    expect(stub().count).toBe(0);

    // The next turn of the same conversation: the summary is in the prompt, the folded exchange is not.
    stub().respond(() => reply.text('Still plenty.'));
    expect(await ask(dir, 'QUESTION-TWO: and pears?', ['--continue-session'])).toBe(session);
    const next = JSON.stringify(stub().requests.at(-1)!.body);
    expect(next).toContain('SUMMARY-TEXT');
    expect(next).toContain('QUESTION-TWO');
    expect(next).not.toContain('QUESTION-ONE');
    // Originals are never deleted: the export still has the folded exchange.
    const exported = await runCli(['sessions', 'export', session, '-d', dir, '--stdout']);
    expect(exported.stdout).toContain('QUESTION-ONE');
  }, cliBudget(6));

  it('says what is wrong with an unknown conversation, agent or seq', async () => {
    stub().respond(() => reply.text('Plenty.'));
    const dir = village();
    const session = await ask(dir, 'Hello');
    const unknown = await runCli(['sessions', 'show', 'nope', '-d', dir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SESSION_NOT_FOUND');
    const agent = await runCli(['sessions', 'summarize', '-d', dir, '--agent', 'ghost']);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('--agent ghost: no such agent in this village');
    expect(agent.stderr).toContain('Name one of: desk');
    const seq = await runCli(['sessions', 'fork', session, '-d', dir, '--at', '999']);
    expect(seq.code).toBe(1);
    expect(seq.stderr).toContain('has no record at seq 999');
    const both = await runCli(['sessions', 'export', session, '-d', dir, '--stdout', '--json']);
    expect(both.code).toBe(2);
  }, cliBudget(5));
});
