/**
 * Unsafe agent ids (reliability suite, issue 28): a village whose world.json holds seeded hostile agent ids — `..`,
 * slashes, NUL, a right-to-left mark, look-alike letters, 65 characters, the empty string — beside one safe agent,
 * driven through the BUILT CLI. Held when `check` names every unsafe id in an UNSAFE_IDENTIFIER finding (escaped: no
 * raw control or non-ASCII character in the message), `ask --start batch` answers with only the safe agent started,
 * a reception with an unsafe id refuses the ask (exit 3, no LLM call), `--start` listing one is an argument error
 * (exit 2), `schedules run-now` on a schedule sending to one answers UNSAFE_IDENTIFIER (exit 1, never BUG), and
 * world.json stays byte for byte as written with nothing created outside the data dir.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBudget, describeRun, makeVillage, runCli, useCliSuite } from '../cli/support/cliProcess.js';
import { pick, seeded, Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };

/** Pieces a hostile id is made of; each id has at least one piece outside [A-Za-z0-9_-]. */
const HOSTILE = ['..', '../', '/', '\\', '\u0000', '\u202e', '\u200b', ' ', '.', '\n', '%2e%2e', 'а', 'ｅ', ':', '~', '$(id)', '\t'];
const SAFE_PART = ['evil', 'x', 'agent', '_', '-', '9'];

/** `n` distinct seeded unsafe ids, plus the two that need no piece: empty and 65 characters. */
function hostileIds(next: () => number, n: number): string[] {
  const ids = new Set<string>(['', 'a'.repeat(65)]);
  while (ids.size < n + 2) {
    let id = '';
    const parts = 1 + pick(next, 3);
    for (let i = 0; i < parts; i += 1) id += SAFE_PART[pick(next, SAFE_PART.length)]! + HOSTILE[pick(next, HOSTILE.length)]!;
    ids.add(id);
  }
  return [...ids];
}

/** Every folder under `dir`, recursively (absolute paths). */
function foldersUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...foldersUnder(join(dir, e.name))] : []));
}

/** Characters that must never reach a message raw: controls, zero-width and bidi overrides. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

interface Finding {
  level: string;
  code: string;
  message: string;
  fix: string;
}

describe('reliability: unsafe agent ids', () => {
  it('hostile ids through check, ask and schedules run-now: named, never started, nothing rewritten', { timeout: cliBudget(8) }, async () => {
    const tally = new Tally('unsafe-ids');
    const ids = hostileIds(seeded(28), 14);
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }, ...ids.map((id) => ({ id }))] });
    const worldFile = join(dir, 'workspace/world.json');
    // Rows sending to "" are dropped by the schedule reader (to must not be empty), so run-now uses the others.
    const runNowTargets = ids.filter((id) => id !== '').slice(0, 3);
    writeFileSync(
      join(dir, 'workspace/schedules.json'),
      JSON.stringify(
        runNowTargets.map((to, i) => ({ id: `${i + 1}1111111-1111-4111-8111-111111111111`, to, message: 'hi', recurrence: { kind: 'interval', everyMinutes: 60 }, enabled: true, createdAtMs: 0, lastConsumedDueMs: null })),
      ),
    );
    const worldText = readFileSync(worldFile, 'utf8');

    // check: one finding per unsafe id, naming it escaped; exit 0 (warnings only: the reception is safe).
    const check = await runCli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json'], KEY);
    expect(check.code, describeRun(check)).toBe(0);
    const report = JSON.parse(check.stdout) as { findings: Finding[]; start: string[] };
    const named = report.findings.filter((f) => f.code === 'UNSAFE_IDENTIFIER');
    for (const id of ids) {
      const quoted = JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      const finding = named.find((f) => f.message.includes(`agent ${quoted} (`));
      tally.check(`check names ${JSON.stringify(id)}`, finding === undefined ? `no finding (got ${named.length})` : finding.level !== 'warn' ? `level ${finding.level}` : INVISIBLE.test(finding.message) ? 'a control, zero-width or bidi character in the message' : null);
    }
    tally.check('check: exactly one finding per unsafe id', named.length === ids.length ? null : `${named.length} for ${ids.length}`);
    tally.check('check: the start set is the safe agent only', JSON.stringify(report.start) === '["desk"]' ? null : JSON.stringify(report.start));

    // ask --start batch: answered; only desk starts (one "agent started" line), the model sees one call.
    const ask = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
    const started = ask.stderr.split('\n').filter((l) => l.includes('agent started:'));
    tally.check('ask answers', ask.code === 0 ? null : describeRun(ask));
    tally.check('ask starts only desk', started.length === 1 && started[0]!.includes('agent=desk ') ? null : started.join(' | '));
    tally.check('ask: one model call', stub().count === 1 ? null : `${stub().count} calls`);

    // --start listing an unsafe id: argument error naming it, nothing started.
    const listed = await runCli(['ask', '--data-dir', dir, '--start', `desk,${ids[3]!}`, '--secrets', 'env', 'hello'], KEY);
    tally.check('--start with an unsafe id: exit 2 naming UNSAFE_IDENTIFIER', listed.code === 2 && listed.stderr.includes('UNSAFE_IDENTIFIER') ? null : describeRun(listed));

    // run-now on a schedule sending to an unsafe id: UNSAFE_IDENTIFIER naming the schedule, exit 1, never BUG.
    for (const [i, to] of runNowTargets.entries()) {
      const run = await runCli(['schedules', 'run-now', `${i + 1}111`, '--data-dir', dir, '--secrets', 'env'], KEY);
      const ok = run.code === 1 && run.stderr.includes('[UNSAFE_IDENTIFIER] Schedule') && !run.stderr.includes('BUG');
      tally.check(`run-now to ${JSON.stringify(to)}`, ok ? null : describeRun(run));
    }
    tally.check('run-now sent nothing to the model', stub().count === 1 ? null : `${stub().count} calls`);

    // The reception itself unsafe: ask is refused by preflight (exit 3) before any model call.
    const world = JSON.parse(worldText) as Record<string, unknown>;
    const second = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: ids[4]! }, { id: 'desk' }] });
    const secondWorld = readFileSync(join(second, 'workspace/world.json'), 'utf8');
    const refused = await runCli(['ask', '--data-dir', second, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
    tally.check('an unsafe reception refuses the ask', refused.code === 3 && refused.stderr.includes('UNSAFE_IDENTIFIER') && stub().count === 1 ? null : describeRun(refused));
    tally.check('second world.json untouched', readFileSync(join(second, 'workspace/world.json'), 'utf8') === secondWorld ? null : 'rewritten');

    tally.check('world.json byte for byte as written', readFileSync(worldFile, 'utf8') === worldText && world['agents'] !== undefined ? null : 'rewritten');
    // Every folder the runs made is one the runtime names; no unsafe id became a path anywhere in the data dir.
    const folders = foldersUnder(dir).map((f) => f.slice(dir.length + 1)).sort();
    const expected = ['workspace', 'workspace/agents', 'workspace/agents/desk', 'workspace/attachments', 'workspace/exports'];
    const stray = folders.filter((f) => !expected.includes(f));
    tally.check('no folder but the runtime\'s own in the data dir', stray.length === 0 ? null : stray.map((f) => JSON.stringify(f)).join(', '));
    tally.finish(ids.length + 12);
  });
});
