/** The file-system side of invocation.ts: the real path of a name on PATH, and of a file (never throws). */
import { realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The real path of the first executable file `name` in the directories of `pathEnv`, or null. */
export function realOnPath(name: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      const file = join(dir, name);
      if (statSync(file).isFile()) return realpathSync(file);
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** A path's real path, or the path itself when it cannot be resolved. */
export function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
