/**
 * The file problems `check` and the `ask`/`serve` preflight report for files whose parsers live in the host: every
 * mcp.json the run would load (shared, and each started agent's), entry by entry with the field and its fix, and
 * for `serve` the shelf's mcp_server.json (the door). Read only; handed to the core's gatherView as `moreProblems`.
 */
import { isFuseforksError } from '../core/errors.js';
import type { ReadProblem } from '../core/preflight/configReaders.js';
import type { PreflightMode } from '../core/preflight/headlessPreflight.js';
import type { VillagePaths } from '../core/village/paths.js';
import { isSafeIdentifier } from '../core/world/identifiers.js';
import { readDoorSettings } from './door/doorSettings.js';
import { readMcpConfig } from './mcp/mcpConfig.js';

/** The reason without the leading "<file>: " the parsers put in their messages (the finding names the file). */
function reasonOf(file: string, message: string): string {
  return message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
}

/** Problems of the host-parsed files of a run with `started` agents in `mode`. */
export async function hostFileProblems(paths: VillagePaths, started: readonly string[], mode: PreflightMode): Promise<ReadProblem[]> {
  const problems: ReadProblem[] = [];
  const mcpFiles = [paths.mcp, ...started.filter(isSafeIdentifier).map((id) => paths.agentFile(id, 'mcp'))];
  for (const file of mcpFiles) {
    try {
      await readMcpConfig(file);
    } catch (error) {
      if (!isFuseforksError(error)) throw error;
      problems.push({ file, reason: `${reasonOf(file, error.message)}; none of its servers connect`, ...(error.fix ? { fix: error.fix } : {}) });
    }
  }
  if (mode === 'serve') {
    const door = await readDoorSettings(paths.shelf.mcpServer);
    if (!door.ok) problems.push({ file: paths.shelf.mcpServer, reason: reasonOf(paths.shelf.mcpServer, door.error.message), ...(door.error.fix ? { fix: door.error.fix } : {}) });
  }
  return problems;
}
