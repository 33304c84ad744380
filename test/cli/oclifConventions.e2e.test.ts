/**
 * oclif's conventions on the built binary: `help <command>`, a mistyped command named as such (exit 2), `-d` for
 * `--data-dir` and FUSEFORKS_DATA_DIR as its fallback, and parse errors as one clean sentence plus a fix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OCLIF_CONFIG } from '../../src/cli/main.js';
import { exampleVillage, ROOT, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();

describe('oclif conventions (built binary)', () => {
  it('the config handed to oclif is the package.json oclif block', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { oclif: unknown };
    expect(JSON.parse(JSON.stringify(OCLIF_CONFIG))).toEqual(pkg.oclif);
  });

  it('help ask shows the ask command, with -d for --data-dir and its environment fallback', async () => {
    const run = await runCli(['help', 'ask']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Send one request to the village reception');
    expect(run.stdout).toMatch(/-d, --data-dir=<dir>/);
    expect(run.stdout).toContain('FUSEFORKS_DATA_DIR');
  });

  it('a mistyped command is named, exit 2', async () => {
    const run = await runCli(['aks', 'hi']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a fuseforks-cli command');
  });

  it('-d and FUSEFORKS_DATA_DIR both name the data dir', async () => {
    const dir = exampleVillage(temps);
    const short = await runCli(['check', '--for', 'ask', '-d', dir, '--start', 'batch', '--secrets', 'env']);
    expect(short.code, short.stderr).toBe(0);
    const fromEnv = await runCli(['check', '--for', 'ask', '--start', 'batch', '--secrets', 'env'], { FUSEFORKS_DATA_DIR: dir });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toBe(short.stdout);
  });

  it('a missing argument is one clean sentence and a fix, exit 2', async () => {
    const run = await runCli(['ask', '-d', temps.make(), '--start', 'batch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error [ARGUMENT] Missing 1 required arg: text (The request text, or - to read it from stdin.)');
    expect(run.stderr).not.toContain(':;');
  });
});
