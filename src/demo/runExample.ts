/**
 * `npm run demo` (after `npm run build`): the README's first command. Creates the bundled example village in
 * `.demo/` (or the folder given as the first argument; only when its `workspace/world.json` is absent) and asks it
 * one question through the real CLI (`node bin/run.js`, child processes), fully offline: the example's templates
 * name the bundled demo model, so the front desk asks a colleague through its `ask_*` tool, the colleague answers
 * on its own worker thread, and the front desk answers. The answer is printed, then the path the request took, as
 * stored in the conversation (`sessions show`). The children's diagnostic stderr is shown only when something fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentMessage } from '../core/events.js';
import { endpointLabel } from '../core/sessions/storedSession.js';

/** The package root (`dist/demo/` → two levels up). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the demo village lives by default (git-ignored working copy). */
export const DEMO_DIR = join(ROOT, '.demo');
/** The question the demo asks. */
export const DEMO_QUESTION = 'Find out what a village of agents is good for.';

function cli(args: string[]): { code: number; stdout: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const code = run.status ?? 1;
  if (code !== 0) process.stderr.write(run.stderr);
  return { code, stdout: run.stdout };
}

/** One line per message between the person, the front desk and its colleagues (the system's notices left out). */
export function pathLines(messages: ReadonlyArray<AgentMessage & { seq: number }>): string[] {
  return messages
    .filter((m) => m.from.kind !== 'system' && m.to.kind !== 'system')
    .map((m) => {
      const text = m.content.replace(/\s+/g, ' ');
      return `  #${m.seq} ${endpointLabel(m.from)} → ${endpointLabel(m.to)}: ${text.length > 100 ? `${text.slice(0, 100)}…` : text}`;
    });
}

/** Runs the demo in `dir`; returns the exit code of the failing step, or the ask's. */
export function runExample(dir: string = DEMO_DIR): number {
  const rel = relative(process.cwd(), dir);
  const shown = rel === '' ? '.' : rel.startsWith('..') ? dir : rel;
  if (!existsSync(join(dir, 'workspace/world.json'))) {
    const init = cli(['init', '--data-dir', dir]);
    if (init.code !== 0) return init.code;
    process.stdout.write(`Created the example village in ${shown}\n`);
  }
  process.stdout.write(`\n$ fuseforks-cli ask --data-dir ${shown} --start batch "${DEMO_QUESTION}"\n\n`);
  const ask = cli(['ask', '--data-dir', dir, '--start', 'batch', '--json', '--quiet', DEMO_QUESTION]);
  const outcome = JSON.parse(ask.stdout) as { answer: string | null; sessionId: string | null };
  if (outcome.answer !== null) process.stdout.write(`${outcome.answer}\n`);
  if (ask.code !== 0 || outcome.sessionId === null) return ask.code;

  const show = cli(['sessions', 'show', outcome.sessionId, '--data-dir', dir, '--json', '--quiet']);
  if (show.code !== 0) return show.code;
  const { messages } = JSON.parse(show.stdout) as { messages: Array<AgentMessage & { seq: number }> };
  process.stdout.write(`\nThe path it took (fuseforks-cli sessions show ${outcome.sessionId} --data-dir ${shown}):\n`);
  process.stdout.write(`${pathLines(messages).join('\n')}\n`);
  return ask.code;
}

process.exitCode = runExample(process.argv[2] === undefined ? DEMO_DIR : resolve(process.argv[2]));
