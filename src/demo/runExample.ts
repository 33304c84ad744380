/**
 * `npm run demo` (after `npm run build`): the README's first command. Creates the bundled example village in
 * `.demo/` (only when `.demo/workspace/world.json` is absent) and asks it one question through the real CLI
 * (`node bin/run.js`, a child process), fully offline on the echo model. The answer is the child's stdout; the
 * child's diagnostic stderr is shown only when something fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (`dist/demo/` → two levels up). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the demo village lives (git-ignored working copy). */
export const DEMO_DIR = join(ROOT, '.demo');
/** The question the demo asks. */
export const DEMO_QUESTION = 'Who works in this village, and what would each of you do with a request?';

function cli(args: string[], stdout: 'inherit' | 'pipe'): number {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), ...args], { cwd: ROOT, stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' });
  const code = run.status ?? 1;
  if (code !== 0) process.stderr.write(run.stderr);
  return code;
}

/** Runs the demo; returns the exit code of the failing step, or the ask's. */
export function runExample(): number {
  if (!existsSync(join(DEMO_DIR, 'workspace/world.json'))) {
    const init = cli(['init', '--data-dir', DEMO_DIR], 'pipe');
    if (init !== 0) return init;
    process.stderr.write(`Created the example village in ${DEMO_DIR}\n`);
  }
  process.stderr.write(`fuseforks-cli ask --data-dir .demo --start batch "${DEMO_QUESTION}"\n\n`);
  return cli(['ask', '--data-dir', DEMO_DIR, '--start', 'batch', DEMO_QUESTION], 'inherit');
}

process.exitCode = runExample();
