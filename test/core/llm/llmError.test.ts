import { describe, expect, it } from 'vitest';
import { FuseforksError, stopsTheAgent, toWire } from '../../../src/core/errors.js';
import {
  apiError,
  configError,
  emptyResponseError,
  httpError,
  isTransient,
  MAX_ERROR_BODY_CHARS,
  parseError,
  scrubBody,
  timeoutError,
  truncatedError,
} from '../../../src/core/llm/llmError.js';
import { ZERO_USAGE } from '../../../src/core/llm/canonical.js';

describe('isTransient', () => {
  it.each([
    ['HTTP 429', apiError('x', 429, '', ''), true],
    ['HTTP 500', apiError('x', 500, '', ''), true],
    ['HTTP 503', apiError('x', 503, '', ''), true],
    ['HTTP 400', apiError('x', 400, '', ''), false],
    ['HTTP 401', apiError('x', 401, '', ''), false],
    ['HTTP 403', apiError('x', 403, '', ''), false],
    ['HTTP 404', apiError('x', 404, '', ''), false],
    ['connect', httpError('x', new Error('ECONNREFUSED'), ''), true],
    ['timeout', timeoutError('x', 1), true],
    ['empty', emptyResponseError('x'), true],
    ['config', configError('no key'), false],
    ['parse', parseError('x', 'bad'), false],
    ['truncated', truncatedError('x', 10, ZERO_USAGE), false],
    ['other code', new FuseforksError('MAILBOX_FULL', 'full'), false],
    ['plain error', new Error('x'), false],
  ])('%s → %s', (_name, err, transient) => {
    expect(isTransient(err)).toBe(transient);
    if (err instanceof FuseforksError && err.code.startsWith('LLM_')) expect(err.retryable).toBe(transient);
  });

  it('non-retryable LLM errors stop the agent, except a truncated output', () => {
    expect(stopsTheAgent(toWire(apiError('x', 401, '', '')))).toBe(true);
    expect(stopsTheAgent(toWire(configError('c')))).toBe(true);
    expect(stopsTheAgent(toWire(truncatedError('x', 10, ZERO_USAGE)))).toBe(false);
  });
});

describe('scrubBody', () => {
  it('removes the secret and truncates to the cap', () => {
    expect(scrubBody('key=abcd1234 end', 'abcd1234')).toBe('key=[redacted] end');
    const long = 'y'.repeat(MAX_ERROR_BODY_CHARS + 50);
    expect(scrubBody(long, '')).toHaveLength(MAX_ERROR_BODY_CHARS + 1);
  });

  it('api errors carry the status and a truncated body', () => {
    const err = apiError('openai-compat', 503, 'z'.repeat(5000), '');
    expect(err.message.length).toBeLessThan(MAX_ERROR_BODY_CHARS + 100);
    expect(err.details).toMatchObject({ status: 503, bodyChars: 5000 });
  });
});
