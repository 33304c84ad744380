/**
 * Every model wire through the shipped build: one `ask --start batch` of the built CLI whose reception sends a plan
 * wave to one agent per provider and mode (streamed and whole), each calling a tool on its own wire against the
 * loopback stub (support/wireTour.ts); `stats` of that conversation then shows each provider's usage read by its own
 * accounting. test/package/packedInstall.e2e.test.ts runs the same tour from the packed tarball. The token budget
 * of an `ask` counts xAI's reasoning as the output it is billed as.
 */
import { describe, expect, it } from 'vitest';
import { reply, toolResultsOf } from '../support/stubLlm.js';
import { cliBudget, describeRun, makeVillage, runCli, useCliSuite } from '../cli/support/cliProcess.js';
import { shippedCli } from './support/shippedCli.js';
import { runWireTour } from './support/wireTour.js';

const { temps, stub } = useCliSuite();

describe('the model wires through the built CLI', () => {
  it('carry a tool call and its result on every provider, streamed and whole, and count each one\'s usage its own way', async () => {
    await runWireTour(shippedCli(), stub(), temps);
  }, cliBudget(2));

  it('spend the token budget on the output xAI reports beside completion_tokens: a 2,000-token request stops after one call', async () => {
    // One grok call: 100 prompt, 26 completion and 255 reasoning tokens = 100 + 4 × 281 = 1,224 effective tokens.
    // Its next call would reserve as much again, more than the 776 left, so the request ends there (exit 9). Counted
    // as 26 output tokens (204 effective), the next call would have fit and answered.
    stub().respond((r) => (toolResultsOf(r).length === 0 ? reply.tool('fd', { pattern: 'tide' }, { usage: { prompt: 100, completion: 281, reasoning: 255, reasoningOutside: true } }) : reply.text('Answered.')));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }], credential: 'not_required', world: { tokenBudget: 2_000 } });
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'reception', '--json', 'Grok it.']);
    expect(run.code, describeRun(run)).toBe(9);
    expect(stub().count).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'budget_exhausted', tokens: { prompt: 100, completion: 281, reasoning: 255, effective: 1_224 } });
  });
});
