/**
 * How a person runs this CLI where they are: `fuseforks-cli` when that name on PATH is this very script (a global
 * or linked install), else `node <path to bin/run.js>` as typed from the working directory (a clone, where the name
 * is not on PATH). `init` prints its "Try:" line with it, so the line works as pasted. Pure; the look-up is given.
 */
import { isAbsolute, relative } from 'node:path';

/** The CLI's name on PATH. */
export const CLI_NAME = 'fuseforks-cli';

/**
 * `script`: the running entry (process.argv[1], absolute); `cwd`: the working directory; `realOnPath(name)`: the
 * real path of the first `name` on PATH, or null; `realOf(path)`: a path's real path.
 */
export function invocationOf(script: string, cwd: string, realOnPath: (name: string) => string | null, realOf: (path: string) => string): string {
  const found = realOnPath(CLI_NAME);
  if (found !== null && found === realOf(script)) return CLI_NAME;
  const rel = relative(cwd, script);
  const shown = rel === '' || isAbsolute(rel) || rel.startsWith('..') ? script : rel;
  return `node ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`;
}
