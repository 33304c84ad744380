import { describe, expect, it } from 'vitest';
import { diagText } from '../../src/core/diag.js';
import { guardDiagFields, guardDiagValue } from '../../src/core/logGuard.js';

describe('guardDiagValue', () => {
  const cases: [string, string, string | number | boolean | null, string | number | boolean | null][] = [
    ['count', 'chars', 42, 42],
    ['boolean', 'ok', true, true],
    ['null', 'cap', null, null],
    ['NaN becomes null', 'prompt', Number.NaN, null],
    ['agent id marker', 'agent', 'planner-2', 'planner-2'],
    ['label marker', 'stop', 'failed:LLM_HTTP', 'failed:LLM_HTTP'],
    ['model marker', 'model', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-20241022'],
    ['prose is replaced by its size', 'content', 'please draft the plan', '‹21 chars›'],
    ['newline is prose', 'name', 'a\nb', '‹3 chars›'],
    ['long blob', 'digest', 'x'.repeat(121), '‹121 chars›'],
    ['openai-style key', 'model', 'sk-proj-abcdefgh12345678', '‹redacted›'],
    ['anthropic-style key', 'x', 'sk-ant-api03-abcdefghijkl', '‹redacted›'],
    ['github token', 'x', `ghp_${'a'.repeat(36)}`, '‹redacted›'],
    ['bearer header in error text', 'error', 'HTTP 401 with Bearer abc.def', '‹redacted›'],
    ['error text is flattened, kept', 'error', 'LLM_HTTP:  503\nService Unavailable', 'LLM_HTTP: 503 Service Unavailable'],
    ['error text is capped', 'error', 'e '.repeat(400), `${'e '.repeat(400).trim().slice(0, 300)}…`],
  ];
  it.each(cases)('%s', (_name, key, value, expected) => {
    expect(guardDiagValue(key, value)).toEqual(expected);
  });

  it('a diagText reason is kept (flattened, capped) under any key; a bare string reason is still a possible body', () => {
    expect(guardDiagValue('reason', diagText('mcp.json:  servers.files.args\nmust be an array'))).toBe('mcp.json: servers.files.args must be an array');
    expect(guardDiagValue('reason', 'must be an array of strings')).toBe('‹27 chars›');
    expect(guardDiagValue('fix', diagText('x '.repeat(400)))).toMatch(/…$/);
    expect(guardDiagValue('reason', diagText('rejected key sk-proj-abcdefgh12345678'))).toBe('‹redacted›');
    expect(guardDiagValue('reason', { other: 1 } as never)).toBeNull();
  });
});

describe('guardDiagFields', () => {
  it('keeps order and renames keys the log record owns', () => {
    const out = guardDiagFields({ agent: 'a', level: 3, msg: 'x', line: 'y', round: 1 });
    expect(Object.keys(out)).toEqual(['agent', 'level_', 'msg_', 'line_', 'round']);
  });
});
