/** The pre-check form input: every refusal is INVALID_SCHEDULE naming the field; shell syntax never passes. */
import { describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../../src/core/errors.js';
import { parseProbeInput, probeCommandLine } from '../../../src/core/schedules/probeInput.js';

function refusal(input: unknown): { code: string; field: unknown } | 'ok' {
  try {
    parseProbeInput(input);
    return 'ok';
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    return { code: error.code, field: error.details?.field };
  }
}

const base = { command: 'git', args: ['status', '--porcelain'], expect: 'yes' };

describe('parseProbeInput', () => {
  it('reads a valid probe with defaults (cwd null = the workspace, timeout 60 s)', () => {
    expect(parseProbeInput(base)).toEqual({ command: 'git', args: ['status', '--porcelain'], expect: 'yes', timeoutSecs: 60, cwd: null });
    expect(parseProbeInput({ ...base, cwd: '  ', timeoutSecs: 5 })).toMatchObject({ cwd: null, timeoutSecs: 5 });
    expect(parseProbeInput({ ...base, cwd: '/srv/repo', command: ' git ' })).toMatchObject({ cwd: '/srv/repo', command: 'git' });
    // An absolute program path may hold a space (e.g. under "Program Files").
    expect(parseProbeInput({ ...base, command: '/opt/my tools/check' }).command).toBe('/opt/my tools/check');
  });

  it.each([
    ['not an object', 'x', 'probe'],
    ['empty command', { ...base, command: '  ' }, 'probe.command'],
    ['missing command', { args: [], expect: 'y' }, 'probe.command'],
    ['a pipe', { ...base, command: 'ls|grep' }, 'probe.command'],
    ['a chain', { ...base, command: 'true&&rm' }, 'probe.command'],
    ['a substitution', { ...base, command: '$(whoami)' }, 'probe.command'],
    ['a redirect', { ...base, command: 'echo>x' }, 'probe.command'],
    ['a whole command line', { ...base, command: 'git status' }, 'probe.command'],
    ['args not strings', { ...base, args: ['a', 1] }, 'probe.args'],
    ['relative cwd', { ...base, cwd: 'repo' }, 'probe.cwd'],
    ['empty expect', { ...base, expect: ' ' }, 'probe.expect'],
    ['timeout 0', { ...base, timeoutSecs: 0 }, 'probe.timeoutSecs'],
    ['timeout too long', { ...base, timeoutSecs: 3601 }, 'probe.timeoutSecs'],
  ])('refuses %s, naming %s', (_name, input, field) => {
    expect(refusal(input)).toEqual({ code: 'INVALID_SCHEDULE', field });
  });

  it('keeps args verbatim (shell characters in args are plain text to the program)', () => {
    expect(parseProbeInput({ ...base, args: [' a ', '|', '$HOME'] }).args).toEqual([' a ', '|', '$HOME']);
  });
});

describe('probeCommandLine', () => {
  it.each([
    [{ command: 'git', args: ['status'] }, 'git status'],
    [{ command: 'echo', args: ['a b'] }, 'echo "a b"'],
    [{ command: 'echo', args: ['a', 'b'] }, 'echo a b'],
    [{ command: 'echo', args: [''] }, 'echo ""'],
    [{ command: '/opt/my tools/x', args: [] }, '"/opt/my tools/x"'],
  ])('%j → %s', (probe, line) => {
    expect(probeCommandLine(probe)).toBe(line);
  });
});
