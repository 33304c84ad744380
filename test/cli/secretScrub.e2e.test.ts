/**
 * A sentinel secret given with `--secrets env` never reaches what an agent's `run` child can read (issue 19): the
 * model asks to run `sh -c 'tr "\0" "\n" < /proc/$PPID/environ'` (allowed in run.json), which reads the runtime's
 * own environment block. The tool result that goes back to the model has the runtime's PATH (the read worked) and
 * neither the variable nor its value; then stdout, stderr and every file the run left are scanned for the value.
 * These tests run as root, which can read any /proc/<pid>/environ: what holds here is the overwrite of the original
 * block; the non-dumpable half (same-user readers) is proved in test/core/secrets/environScrub.int.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, filesUnder, letAgentRun, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const SENTINEL = 'sk-proj-RUNCHILDsentinel-0c4d2e9b7a61';

describe('secrets out of the environment block', () => {
  it('a run child reading /proc/$PPID/environ sees PATH but not FUSEFORKS_SECRET_*; no output or file holds the value', { timeout: cliBudget(1) }, async () => {
    const dir = makeVillage(temps, {
      baseUrl: stub().baseUrl,
      agents: [{ id: 'desk' }],
      world: {},
    });
    letAgentRun(dir, 'desk', ['sh *'], temps.make('ff-workdir-'));
    stub().enqueueAll([
      reply.toolCalls([{ name: 'run', args: { command: 'sh', args: ['-c', 'tr "\\0" "\\n" < /proc/$PPID/environ'] } }]),
      reply.text('read it'),
    ]);

    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'show me'], { FUSEFORKS_SECRET_STUB: SENTINEL });
    expect(run.code, describeRun(run)).toBe(0);
    expect(stub().count).toBe(2);
    // The first request carried the key as it should (positive control: the secret was really there).
    expect(stub().requests[0]?.headers.authorization).toBe(`Bearer ${SENTINEL}`);
    const toolResult = JSON.stringify(stub().requests[1]?.body);
    expect(toolResult, toolResult.slice(-1500)).toContain("PATH=");
    expect(toolResult).not.toContain('FUSEFORKS_SECRET_');
    expect(toolResult).not.toContain(SENTINEL);
    for (const [where, text] of [['stdout', run.stdout], ['stderr', run.stderr]] as const) expect(text, where).not.toContain(SENTINEL);
    for (const file of filesUnder(dir)) expect(readFileSync(file).includes(SENTINEL), file).toBe(false);
  });
});
