/**
 * The factory helper: a factory is bound to its code when defined, so what it makes always carries that code, the
 * code's fault, the sentences its builder wrote and nothing else; an LLM factory keeps usage and status.
 */
import { describe, expect, it } from 'vitest';
import { toWire } from '../../../src/core/errors.js';
import { errorFactory } from '../../../src/core/errors/errorFactory.js';
import { fileAccessFailed, villageMissing } from '../../../src/core/errors/configErrors.js';
import { externalBusy, mailboxFull } from '../../../src/core/errors/runtimeErrors.js';
import { apiError, truncatedError, LlmError } from '../../../src/core/llm/llmError.js';

describe('errorFactory', () => {
  it('binds the code: the error carries it, its fault, and exactly the fields the builder gave', () => {
    const make = errorFactory('ROLE_NOT_FOUND', (id: string) => ({ message: `no role ${id}`, fix: 'pick one', details: { roleId: id } }));
    expect(make.code).toBe('ROLE_NOT_FOUND');
    expect(toWire(make('r1'))).toEqual({ code: 'ROLE_NOT_FOUND', message: 'no role r1', fix: 'pick one', details: { roleId: 'r1' }, agentId: null, retryable: false, fault: 'user' });
  });

  it.each([
    [villageMissing({ dataDir: '/d', world: '/d/workspace/world.json' }), 'VILLAGE_MISSING', 'user', false],
    [fileAccessFailed('/f', 'read', 'EACCES', new Error('x')), 'CONFIG_IO', 'system', false],
    [mailboxFull('a', 64), 'MAILBOX_FULL', 'system', true],
    [externalBusy(16, 16), 'EXTERNAL_BUSY', 'system', true],
    [apiError('openai-compat', 500, 'oops', 'sk-secret'), 'LLM_API', 'model', true],
    [apiError('openai-compat', 401, 'no', 'sk-secret'), 'LLM_API', 'model', false],
  ])('%#: %s carries code, fault and retry verdict', (error, code, fault, retryable) => {
    expect({ code: error.code, fault: error.fault, retryable: error.retryable }).toEqual({ code, fault, retryable });
  });

  it('keeps the cause off the wire and on the error', () => {
    const cause = new Error('EACCES: permission denied');
    const error = fileAccessFailed('/f', 'write', 'EACCES', cause);
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(toWire(error))).not.toContain('permission denied');
  });

  it('an LLM factory makes an LlmError with its usage and status', () => {
    const usage = { prompt: 10, completion: 5, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
    const cut = truncatedError('anthropic', 64, usage);
    expect(cut).toBeInstanceOf(LlmError);
    expect([cut.code, cut.usage, cut.fault]).toEqual(['LLM_OUTPUT_TRUNCATED', usage, 'model']);
    expect(apiError('gemini', 429, 'slow down', 'k').status).toBe(429);
    expect(truncatedError.code).toBe('LLM_OUTPUT_TRUNCATED');
  });
});
