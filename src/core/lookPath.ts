/** Finding an executable by name in a list of folders (PATH for `run`, fixed system folders for the sandbox). */
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

/** The first `dir/command` that is an executable regular file, or null. */
export function findExecutable(command: string, dirs: readonly string[]): string | null {
  for (const dir of dirs) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next folder
    }
  }
  return null;
}
