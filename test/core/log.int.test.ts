/**
 * The diagnostic log on real files: JSON lines with msg = kind and a grep-parity `line`, stderr modes,
 * the startup band order, and rotation to one `.old` generation at an injected threshold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_FILE, LOG_OLD_FILE, openDiagLog, type DiagLog } from '../../src/core/log.js';
import { STARTUP_BAND, StartupBand, mayFollow } from '../../src/core/startupBand.js';

let dir: string;
const logs: DiagLog[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-log-'));
});
afterEach(() => {
  for (const log of logs.splice(0)) log.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(stderrMode: 'none' | 'human' | 'jsonl' = 'none', rotateBytes?: number, stderr?: (t: string) => void): DiagLog {
  const log = openDiagLog({ workspaceDir: dir, stderrMode, ...(rotateBytes === undefined ? {} : { rotateBytes }), ...(stderr ? { stderr } : {}) });
  logs.push(log);
  return log;
}

function readLines(file = LOG_FILE): Record<string, unknown>[] {
  return fs.readFileSync(path.join(dir, file), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('openDiagLog', () => {
  it('writes JSON lines: level, time, msg = kind, the fields in order, and the rendered line', () => {
    const log = open();
    log.note('turn', { agent: 'planner', hop: 0, rounds: '2/8', stop: '-', prompt: 1200 });
    log.note('session store', { outcome: 'unavailable' }, 'warn');
    log.close();
    log.note('after close', {});
    const lines = readLines();
    expect(lines.map((l) => l.msg)).toEqual(['started', 'turn', 'session store']);
    expect(lines[0]).toMatchObject({ level: 'info', pid: process.pid, line: `started: pid=${process.pid}` });
    expect(typeof lines[1]!.time).toBe('number');
    expect(lines[1]).toMatchObject({ level: 'info', agent: 'planner', prompt: 1200, line: 'turn: agent=planner hop=0 rounds=2/8 stop=- prompt=1200' });
    expect(Object.keys(lines[1]!)).toEqual(['level', 'time', 'agent', 'hop', 'rounds', 'stop', 'prompt', 'line', 'msg']);
    expect(lines[2]).toMatchObject({ level: 'warn', line: 'WARN session store: outcome=unavailable' });
  });

  it.each([
    ['none', []],
    ['human', ['[fuseforks] started: pid=P\n', '[fuseforks] reply: agent=a chars=3\n']],
    ['jsonl', ['{"type":"log","message":"started: pid=P"}\n', '{"type":"log","message":"reply: agent=a chars=3"}\n']],
  ] as const)('stderr mode %s', (mode, expected) => {
    const seen: string[] = [];
    const log = open(mode, undefined, (t) => seen.push(t.replace(String(process.pid), 'P')));
    log.note('reply', { agent: 'a', chars: 3 });
    expect(seen).toEqual(expected);
  });

  it('writes the startup band in its fixed order and refuses to go backwards', () => {
    const log = open();
    const band = new StartupBand(log);
    band.version('0.1.0', 'release');
    band.sessionOpened({ id: '1767225600000-abcd1234', messages: 12, histories: 2, summaries: 1, skipped: 0 });
    band.mcpServer(39641);
    band.jev(false, null);
    expect(() => band.version('0.1.0', 'release')).toThrow(expect.objectContaining({ code: 'BUG' }));
    const lines = readLines();
    expect(lines.map((l) => l.msg)).toEqual([...STARTUP_BAND]);
    expect(lines.map((l) => l.line).slice(1)).toEqual([
      'version: app=0.1.0 profile=release',
      'session opened: id=1767225600000-abcd1234 messages=12 histories=2 summaries=1 skipped=0',
      'mcp server: address=127.0.0.1:39641/mcp',
      'jev: enabled=false model=-',
    ]);
  });

  it('optional band steps may be skipped; a village without a store says so', () => {
    const log = open();
    const band = new StartupBand(log);
    band.version('0.1.0', 'debug');
    band.sessionOpened(null);
    band.jev(true, 'gpt-4o-mini');
    expect(readLines().map((l) => l.line).slice(1)).toEqual([
      'version: app=0.1.0 profile=debug',
      'session opened: id=- persistence=off',
      'jev: enabled=true model=gpt-4o-mini',
    ]);
  });

  it.each([
    ['started', 'version', true],
    ['version', 'jev', true],
    ['mcp server', 'session opened', false],
    ['version', 'version', false],
    ['jev', 'started', false],
  ] as const)('mayFollow(%s, %s) = %s', (last, next, ok) => {
    expect(mayFollow(last, next)).toBe(ok);
  });

  it('rotates to one .old generation once the file reaches the threshold', () => {
    const threshold = 2048;
    const log = open('none', threshold);
    const file = path.join(dir, LOG_FILE);
    const old = path.join(dir, LOG_OLD_FILE);
    let n = 0;
    while (!fs.existsSync(old) && n < 10_000) log.note('tick', { n: n++ });
    const firstOld = fs.readFileSync(old, 'utf8');
    expect(firstOld.length).toBeGreaterThanOrEqual(threshold);
    expect(firstOld.length).toBeLessThan(threshold + 200);
    expect(fs.statSync(file).size).toBeLessThan(threshold);
    expect(readLines().map((l) => l.n)).toEqual([n - 1]);

    // A second rotation replaces .old: one generation only.
    while (fs.readFileSync(old, 'utf8') === firstOld && n < 20_000) log.note('tick', { n: n++ });
    expect(fs.readdirSync(dir).sort()).toEqual([LOG_FILE, LOG_OLD_FILE]);
    // The new .old starts where the first rotation's fresh file started: nothing lost, nothing duplicated.
    const firstOldLast = JSON.parse(firstOld.trimEnd().split('\n').at(-1)!) as { n: number };
    expect(readLines(LOG_OLD_FILE)[0]!.n).toBe(firstOldLast.n + 1);
  });

  it('reopening appends to the existing file and starts with a new started line', () => {
    open().note('one', {});
    logs.splice(0).forEach((l) => l.close());
    open().note('two', {});
    expect(readLines().map((l) => l.msg)).toEqual(['started', 'one', 'started', 'two']);
  });
});
