/**
 * oclif's conventions on the built binary: `help <command>`, a mistyped command named as such (exit 2), `-d` for
 * `--data-dir` and FUSEFORKS_DATA_DIR as its fallback, parse errors as one clean sentence plus a fix, `--version`
 * naming the build, and `autocomplete` writing a completion script that knows every command.
 */
import { readFileSync } from 'node:fs';
import { COMMANDS } from '../../src/cli/commandMap.js';
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

  it('--version names the build (dist/cli/buildInfo.json), the platform and Node', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'dist/cli/buildInfo.json'), 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`fuseforks-cli/${version} ${process.platform}-${process.arch} node-${process.version}`);
  });

  it('autocomplete bash prints the set-up and writes a completion script naming every command and its flags', async () => {
    const home = temps.make('ff-autocomplete-');
    const run = await runCli(['autocomplete', 'bash'], { HOME: home, XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('fuseforks-cli autocomplete script bash');
    const script = readFileSync(join(home, 'cache/fuseforks/autocomplete/functions/bash/fuseforks-cli.bash'), 'utf8');
    // A command without flags (`version`) is listed bare.
    for (const id of Object.keys(COMMANDS)) expect(script, `completion for ${id}`).toMatch(new RegExp(`^${id}( --|\\s*$)`, 'm'));
    expect(script).toMatch(/^ask --data-dir --start --secrets /m);
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
