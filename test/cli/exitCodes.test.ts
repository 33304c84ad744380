import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/errors.js';
import { PLAN_TASK_STATES, type PlanTaskState } from '../../src/core/events.js';
import { EXIT, EXIT_CODE_TABLE, exitForArgumentError, exitForBootError, exitForOutcome, exitForPreflight } from '../../src/cli/exitCodes.js';

describe('exit-code table (SPEC §6.4)', () => {
  it('has exactly the codes 0–9, each once, matching EXIT', () => {
    expect(EXIT_CODE_TABLE.map((row) => row.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const row of EXIT_CODE_TABLE) expect(EXIT[row.name]).toBe(row.code);
  });

  const outcomes: [PlanTaskState, number][] = [
    ['answered', 0],
    ['handed_off', 0],
    ['no_answer', 6],
    ['undeliverable', 6],
    ['running', 6],
    ['timed_out', 7],
    ['interrupted', 8],
    ['budget_exhausted', 9],
  ];
  it.each(outcomes)('ask outcome %s → %i', (state, code) => {
    expect(exitForOutcome(state)).toBe(code);
  });
  it('covers every plan task state', () => {
    expect(outcomes.map(([s]) => s).sort()).toEqual([...PLAN_TASK_STATES].sort());
  });

  it.each([
    ['LOCK_HELD', 4],
    ['SESSION_STORE_LOCKED', 4],
    ['VILLAGE_MISSING', 5],
    ['CONFIG_PARSE', 5],
    ['SECRET_NAME_COLLISION', 5],
    ['SECRET_STORE_FAILED', 5],
  ] as const)('boot error %s → %i', (code, exit) => {
    expect(exitForBootError(code)).toBe(exit);
  });
  it('maps every error code at boot to 4 or 5', () => {
    for (const code of ERROR_CODES) expect([4, 5]).toContain(exitForBootError(code));
  });

  it('preflight: 0 without a reject, 3 with one; argument error: 2', () => {
    expect(exitForPreflight([])).toBe(0);
    expect(exitForPreflight([{ level: 'warn' }, { level: 'info' }])).toBe(0);
    expect(exitForPreflight([{ level: 'info' }, { level: 'reject' }])).toBe(3);
    expect(exitForArgumentError()).toBe(2);
  });
});
