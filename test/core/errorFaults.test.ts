/**
 * Who is at fault (STYLE 20), decided per code in one table: the rules the table must keep, a row per kind of
 * failure, and the wire: toWire carries the fault, fromWire reads it from the code again.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_FAULT_KINDS, ERROR_FAULTS, faultOf, type ErrorFault } from '../../src/core/errorFaults.js';
import { BugError, ERROR_CODES, FuseforksError, fromWire, toWire, type ErrorCode } from '../../src/core/errors.js';

describe('faultOf', () => {
  const rows: [ErrorCode, ErrorFault][] = [
    // the person's input or configuration
    ['UNSAFE_IDENTIFIER', 'user'],
    ['CONFIG_PARSE', 'user'],
    ['VILLAGE_MISSING', 'user'],
    ['INVALID_REQUEST', 'user'],
    ['LLM_CONFIG', 'user'],
    ['CREDENTIAL_MISSING', 'user'],
    ['INVALID_ATTACHMENT', 'user'],
    // the host, a file, a lock, a store, the network, a bug
    ['CONFIG_IO', 'system'],
    ['LOCK_HELD', 'system'],
    ['SESSION_STORE_CORRUPT', 'system'],
    ['SECRET_STORE_FAILED', 'system'],
    ['WORKER_CRASHED', 'system'],
    ['LLM_HTTP', 'system'],
    ['BUG', 'system'],
    // the provider, once reached
    ['LLM_API', 'model'],
    ['LLM_TIMEOUT', 'model'],
    ['LLM_BLOCKED', 'model'],
    ['LLM_PARSE', 'model'],
    ['LLM_OUTPUT_TRUNCATED', 'model'],
  ];
  it.each(rows)('%s is the fault of the %s', (code, fault) => {
    expect(faultOf(code)).toBe(fault);
  });

  it('has exactly one row per error code, each a known fault', () => {
    expect(Object.keys(ERROR_FAULTS).sort()).toEqual([...ERROR_CODES].sort());
    for (const fault of Object.values(ERROR_FAULTS)) expect(ERROR_FAULT_KINDS).toContain(fault);
  });

  it('blames the model only for LLM_* codes, and every kind of fault is used', () => {
    const model = ERROR_CODES.filter((c) => faultOf(c) === 'model');
    expect(model.every((c) => c.startsWith('LLM_'))).toBe(true);
    expect(new Set(Object.values(ERROR_FAULTS))).toEqual(new Set(ERROR_FAULT_KINDS));
  });
});

describe('fault on the error and its wire form', () => {
  it('every FuseforksError carries its code\'s fault, BugError included', () => {
    expect(new FuseforksError('LOCK_IO', 'm').fault).toBe('system');
    expect(new FuseforksError('ROLE_NOT_FOUND', 'm').fault).toBe('user');
    expect(new BugError('broken').fault).toBe('system');
  });

  it('toWire carries the fault; so does a plain Error turned into BUG', () => {
    expect(toWire(new FuseforksError('LLM_EMPTY_RESPONSE', 'm')).fault).toBe('model');
    expect(toWire(new Error('boom'))).toMatchObject({ code: 'BUG', fault: 'system' });
  });

  it('fromWire reads the fault from the code, never from a payload that disagrees', () => {
    const lying = { ...toWire(new FuseforksError('INVALID_SCHEDULE', 'm', { fix: 'f' })), fault: 'model' as const };
    const back = fromWire(lying);
    expect(back.fault).toBe('user');
    expect(toWire(back)).toMatchObject({ code: 'INVALID_SCHEDULE', fix: 'f', fault: 'user' });
  });
});
