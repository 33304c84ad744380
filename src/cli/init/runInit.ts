/**
 * `fuseforks-cli init --data-dir D` as a testable function: copies the bundled example village
 * (`examples/village/`: five agents on the offline demo model) into D. Refuses — exit 5, code VILLAGE_EXISTS —
 * when `D/workspace/world.json` already exists, and never overwrites any file that is already there.
 */
import { cpSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { narrowCopyToPrivate, pathsUnder } from '../../core/privateFiles.js';
import { villagePaths } from '../../core/village/paths.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';

/** The bundled example village (`dist/cli/init/` and `src/cli/init/` are both three levels below the root). */
export const EXAMPLE_VILLAGE = fileURLToPath(new URL('../../../examples/village/', import.meta.url));

/** Parsed arguments of `init`. */
export interface InitOptions {
  dataDir: string;
  /** Test seam: the village to copy. */
  source?: string;
  /** How the person runs this CLI here (invocation.ts); default `fuseforks-cli`. */
  invocation?: string;
}

/** Runs `init`; 0 = copied, 5 = a village already exists there, 1 = the copy failed. */
export function runInit(options: InitOptions, output: CliOutput): ExitCode {
  const paths = villagePaths(options.dataDir);
  if (existsSync(paths.world)) {
    output.note({
      level: 'error',
      code: 'VILLAGE_EXISTS',
      message: `${paths.world} already exists; init never overwrites a village.`,
      fix: 'Choose an empty --data-dir, or use the village that is already there.',
    });
    return EXIT.bootFailed;
  }
  try {
    // force:false keeps every file that is already there (a half-made workspace keeps its own files).
    const before = new Set(existsSync(paths.dataDir) ? [paths.dataDir, ...pathsUnder(paths.dataDir)] : []);
    cpSync(options.source ?? EXAMPLE_VILLAGE, paths.dataDir, { recursive: true, force: false, errorOnExist: false });
    // cpSync keeps the package's modes (0644/0755): what it made is narrowed to the user (privateFiles.ts).
    narrowCopyToPrivate(paths.dataDir, before);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    output.note({ level: 'error', code: 'CONFIG_IO', message: `Cannot copy the example village into ${paths.dataDir} (${errno}).`, fix: 'Check that --data-dir is writable by this user.' });
    return EXIT.coreError;
  }
  output.note({ level: 'info', code: 'INIT', message: `Created the example village in ${paths.workspace}. Try: ${options.invocation ?? 'fuseforks-cli'} ask --data-dir ${quoted(options.dataDir)} --start batch "hello"` });
  return EXIT.ok;
}

/** A path as a shell word: as is when it is plain, else in double quotes. */
function quoted(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : JSON.stringify(path);
}
