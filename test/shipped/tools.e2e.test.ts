/**
 * Every built-in tool through the shipped build: one `ask` of the built CLI (bin/run.js → the CLI bundle, the agent
 * worker and engine bundles, the scanning pool's bundle) whose stub script makes the agent call remember, grep, fd,
 * diff, file, sd, yq (JSON and TOML), blackboard, rag, run and judge in turn; each result is checked as the stub
 * received it (support/toolTour.ts). test/package/packedInstall.e2e.test.ts runs the same tour from the packed
 * tarball. Sources run unbundled elsewhere; this is the path users run.
 */
import { describe, it } from 'vitest';
import { cliBudget, useCliSuite } from '../cli/support/cliProcess.js';
import { shippedCli } from './support/shippedCli.js';
import { runToolTour } from './support/toolTour.js';

const { temps, stub } = useCliSuite();

describe('the built-in tools through the built CLI', () => {
  it('answer with their real output: a match, a file, a diff, an edit, a note, a section, a command, a verdict', async () => {
    await runToolTour(shippedCli(), stub(), temps);
  }, cliBudget(1));
});
