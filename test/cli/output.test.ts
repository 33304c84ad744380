import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/preflight/finding.js';
import { CliOutput, cliLine, logLine, renderFindingsHuman, renderFindingsJson } from '../../src/cli/output.js';

function capture(mode: 'human' | 'jsonl') {
  const out: string[] = [];
  const err: string[] = [];
  const output = new CliOutput(mode, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { output, out, err };
}

const findings: Finding[] = [
  { level: 'reject', code: 'SECRET_MISSING', message: 'm1', fix: 'f1' },
  { level: 'info', code: 'RECEPTION_TARGETS_OUTSIDE', message: 'm2', fix: 'f2' },
];

describe('CliOutput', () => {
  it('jsonl: every stderr line is one JSON object of kind cli, log or a CoreEvent', () => {
    const { output, out, err } = capture('jsonl');
    output.note({ level: 'error', code: 'ARGUMENT', message: 'bad\nflag', fix: 'fix it' });
    output.note({ level: 'warn', code: 'X', message: 'no fix' });
    output.log('line one\nline two', 'mcp:files');
    output.event({ type: 'agentTyping', agentId: 'a', active: true });
    expect(out).toEqual([]);
    const lines = err.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toEqual({ type: 'cli', level: 'error', code: 'ARGUMENT', message: 'bad\nflag', fix: 'fix it', fault: 'user' });
    expect(parsed[1]).toEqual({ type: 'cli', level: 'warn', code: 'X', message: 'no fix' });
    expect(parsed[2]).toEqual({ type: 'log', message: 'line one\nline two', source: 'mcp:files' });
    expect(parsed[3]).toEqual({ type: 'agentTyping', agentId: 'a', active: true });
  });

  it('human: notes are text, events are not streamed, stdout gets the text plus one newline', () => {
    const { output, out, err } = capture('human');
    output.note({ level: 'error', code: 'VILLAGE_MISSING', message: 'none', fix: 'make one' });
    output.event({ type: 'topologyChanged' });
    output.stdout('answer');
    expect(err.join('')).toBe('error [VILLAGE_MISSING] none\n  fix: make one\n');
    expect(out).toEqual(['answer\n']);
  });

  it('line builders omit absent fields', () => {
    expect(JSON.parse(cliLine({ level: 'info', code: 'C', message: 'm', fix: '' }))).toEqual({ type: 'cli', level: 'info', code: 'C', message: 'm' });
    expect(JSON.parse(logLine('x'))).toEqual({ type: 'log', message: 'x' });
  });

  it('a cli line for an error code carries that code\'s fault; a finding code carries none', () => {
    expect(JSON.parse(cliLine({ level: 'error', code: 'LOCK_HELD', message: 'm' }))).toMatchObject({ code: 'LOCK_HELD', fault: 'system' });
    expect(JSON.parse(cliLine({ level: 'error', code: 'LLM_TIMEOUT', message: 'm' }))).toMatchObject({ fault: 'model' });
    expect(JSON.parse(cliLine({ level: 'error', code: 'VILLAGE_MISSING', message: 'm' }))).toMatchObject({ fault: 'user' });
    expect(JSON.parse(cliLine({ level: 'warn', code: 'SECRET_MISSING', message: 'm' }))).not.toHaveProperty('fault');
  });
});

describe('findings rendering', () => {
  it('--json is exactly one line with findings and start', () => {
    const text = renderFindingsJson(findings, ['a', 'b']);
    expect(text.includes('\n')).toBe(false);
    expect(JSON.parse(text)).toEqual({ format: 1, findings, start: ['a', 'b'] });
  });

  it.each([
    ['en', '1 reject, 0 warn, 1 info', '[reject] SECRET_MISSING: m1'],
    ['ja', '拒否 1 件・警告 0 件・情報 1 件', '[拒否] SECRET_MISSING: m1'],
  ] as const)('human text (%s): two lines per finding and a count line', (language, count, first) => {
    const lines = renderFindingsHuman(findings, language).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(first);
    expect(lines[1]).toBe('  → f1');
    expect(lines[4]).toBe(count);
  });
});
