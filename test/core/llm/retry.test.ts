import { describe, expect, it } from 'vitest';
import { apiError, parseError } from '../../../src/core/llm/llmError.js';
import { attemptsFor, backoffMs, withRetry, type Sleep } from '../../../src/core/llm/retry.js';

describe('backoff and attempts', () => {
  it.each([
    [0, 200],
    [1, 400],
    [2, 800],
    [4, 3200],
    [5, 5000],
    [10, 5000],
  ])('backoffMs(%i) = %i', (n, ms) => expect(backoffMs(n)).toBe(ms));

  it.each([
    [0, 1],
    [1, 1],
    [3, 3],
    [-2, 1],
  ])('attemptsFor(%i) = %i', (max, n) => expect(attemptsFor(max)).toBe(n));
});

describe('withRetry', () => {
  const recordSleep = (): { sleeps: number[]; sleep: Sleep } => {
    const sleeps: number[] = [];
    return { sleeps, sleep: (ms) => (sleeps.push(ms), Promise.resolve()) };
  };

  it('retries transient failures with growing backoff, then returns', async () => {
    const { sleeps, sleep } = recordSleep();
    let calls = 0;
    const out = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw apiError('x', 503, '', '');
        return 'ok';
      },
      { attempts: 3, sleep },
    );
    expect(out).toBe('ok');
    expect(sleeps).toEqual([200, 400]);
  });

  it('stops at the attempt limit with the last error', async () => {
    const { sleep } = recordSleep();
    let calls = 0;
    await expect(withRetry(async () => (calls++, Promise.reject(apiError('x', 500, '', ''))), { attempts: 2, sleep })).rejects.toMatchObject({ code: 'LLM_API' });
    expect(calls).toBe(2);
  });

  it('never retries a non-transient failure', async () => {
    const { sleeps, sleep } = recordSleep();
    let calls = 0;
    await expect(withRetry(async () => (calls++, Promise.reject(parseError('x', 'bad'))), { attempts: 5, sleep })).rejects.toMatchObject({ code: 'LLM_PARSE' });
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a transient failure that lands together with an interrupt is not retried (no backoff sleep)', async () => {
    const ctl = new AbortController();
    const { sleeps, sleep } = recordSleep();
    let calls = 0;
    const failing = async (): Promise<string> => {
      calls += 1;
      ctl.abort(); // the interrupt arrives while the request is failing with a 503
      throw apiError('openai-compat', 503, 'busy', '');
    };
    await expect(withRetry(failing, { attempts: 5, signal: ctl.signal, sleep })).rejects.toMatchObject({ code: 'LLM_API', status: 503 });
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not start when the signal is already aborted', async () => {
    const ctl = new AbortController();
    ctl.abort();
    let calls = 0;
    await expect(withRetry(async () => (calls++, 'x'), { attempts: 3, signal: ctl.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(0);
  });
});
