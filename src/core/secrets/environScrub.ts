/**
 * Taking `FUSEFORKS_SECRET_*` out of the process once they are read (`--secrets env`). Deleting from `process.env`
 * (unsetenv) is not enough on Linux: `/proc/<pid>/environ` shows the ORIGINAL environment strings on the initial
 * stack, which unsetenv never touches, so an allowed `run` child could `cat /proc/$PPID/environ`. Three steps:
 * 1. delete every such variable from `process.env` (later children, workers and getenv no longer see them);
 * 2. overwrite each `FUSEFORKS_SECRET_…=value` string inside the original block with zero bytes, through
 *    `/proc/self/mem` (the block's address range is `env_start`/`env_end` of `/proc/self/stat`), so `environ`
 *    shows neither name nor value to any reader, root included;
 * 3. mark the process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)` through koffi): `/proc/<pid>/mem`, `environ`,
 *    `maps` and the other per-process files become root-only, so a process of the same user (a `run` child, an
 *    MCP server) can no longer read the values out of the heap, where the secret store keeps them.
 * Root can still read a non-dumpable process's memory; nothing short of not holding the key protects against root.
 */
import fs from 'node:fs';
import { makeNonDumpable } from './nonDumpable.js';
import { SECRET_ENV_PREFIX } from './secretNames.js';

/** What the scrub did, for the startup log (counts only). */
export interface ScrubReport {
  /** Variables deleted from process.env. */
  removed: number;
  /** Strings overwritten in the original environment block (0 where /proc is missing). */
  overwritten: number;
  /** The process is now non-dumpable. */
  nonDumpable: boolean;
}

/** Overwrites every `FUSEFORKS_SECRET_…` string of the original environment block with zeros; returns how many. */
export function overwriteOriginalEnvironment(prefix: string = SECRET_ENV_PREFIX): number {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return 0; // not Linux
  }
  // Fields after the command name: field 50 (env_start) and 51 (env_end) of the whole line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[47]);
  const end = Number(fields[48]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return 0;
  const fd = fs.openSync('/proc/self/mem', 'r+');
  try {
    const block = Buffer.alloc(end - start);
    fs.readSync(fd, block, 0, block.length, start);
    const mark = Buffer.from(prefix, 'latin1');
    let overwritten = 0;
    for (let at = 0; at < block.length; ) {
      let stop = block.indexOf(0, at);
      if (stop < 0) stop = block.length;
      if (stop - at >= mark.length && block.compare(mark, 0, mark.length, at, at + mark.length) === 0) {
        fs.writeSync(fd, Buffer.alloc(stop - at), 0, stop - at, start + at);
        overwritten += 1;
      }
      at = stop + 1;
    }
    return overwritten;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes every `FUSEFORKS_SECRET_*` variable from this process (all three steps above). Call once, right after the
 * values were copied into the store. Idempotent.
 */
export function scrubSecretEnvironment(env: NodeJS.ProcessEnv = process.env): ScrubReport {
  let removed = 0;
  for (const name of Object.keys(env)) {
    if (!name.startsWith(SECRET_ENV_PREFIX)) continue;
    delete env[name];
    removed += 1;
  }
  // The overwrite reads /proc/self/mem, which non-dumpable makes root-only: overwrite first.
  const overwritten = env === process.env ? overwriteOriginalEnvironment() : 0;
  const nonDumpable = env === process.env ? makeNonDumpable() : false;
  return { removed, overwritten, nonDumpable };
}

let taken: Readonly<Record<string, string>> | null = null;
let report: ScrubReport | null = null;

/**
 * This process's `FUSEFORKS_SECRET_*` variables, read once: the first call copies them and scrubs them out of the
 * process; later calls (preflight, then the boot) get the same copy. Values live only in the returned object.
 */
export function takeProcessEnvSecrets(): Readonly<Record<string, string>> {
  if (taken === null) {
    const copy: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (name.startsWith(SECRET_ENV_PREFIX) && value !== undefined) copy[name] = value;
    taken = copy;
    report = scrubSecretEnvironment();
  }
  return taken;
}

/** What the one scrub of this process did (null before `takeProcessEnvSecrets`), for the startup log. */
export function processScrubReport(): ScrubReport | null {
  return report;
}
