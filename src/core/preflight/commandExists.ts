/**
 * Does a command exist (SPEC §6.1 row 9)? An absolute or relative path must name an existing file; a bare name
 * must be found in a PATH directory (with PATHEXT on Windows). Read-only filesystem checks; never spawns.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

function isRunnableFile(path: string, windows: boolean): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (!windows) accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** True when `command` would be found: a path that exists, or a bare name on `env.PATH`. */
export function commandExists(command: string, env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): boolean {
  const windows = platform === 'win32';
  const trimmed = command.trim();
  if (trimmed === '') return false;
  const exts = windows ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [];
  const candidates = (base: string): string[] => (windows ? [base, ...exts.map((e) => base + e.toLowerCase()), ...exts.map((e) => base + e)] : [base]);
  if (isAbsolute(trimmed) || trimmed.includes('/') || (windows && trimmed.includes('\\'))) {
    return candidates(trimmed).some((c) => isRunnableFile(c, windows));
  }
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  return dirs.some((dir) => candidates(join(dir, trimmed)).some((c) => isRunnableFile(c, windows)));
}
