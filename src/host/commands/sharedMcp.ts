/**
 * The shared `workspace/mcp.json` as text for an editor: read ("" when absent) and write after validation with
 * the same parser the MCP client uses, so a file the GUI saves is a file the village can load. A refused text
 * (or a stale base: EDIT_CONFLICT) leaves the file untouched (a parse error names the position).
 */
import { readTextOrEmpty } from '../../core/village/promptFiles.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import type { VillagePaths } from '../../core/village/paths.js';
import { fileTarget, requireContentBase, revisionsOf, type EditBase, type Revisions } from '../../core/village/revision.js';
import { parseMcpConfig } from '../mcp/mcpConfig.js';

/** The shared mcp.json as its editor shows it. */
export interface SharedMcpView {
  text: string;
  revisions: Revisions;
}

/** Current text of the shared mcp.json ("" when the file does not exist). */
export async function readSharedMcp(paths: VillagePaths): Promise<SharedMcpView> {
  const text = await readTextOrEmpty(paths.mcp);
  return { text, revisions: revisionsOf(fileTarget(paths.dataDir, paths.mcp), text) };
}

/** Validates `text` as an mcpServers file (CONFIG_PARSE with line:column on failure), checks the base, then writes it atomically. */
export async function writeSharedMcp(paths: VillagePaths, text: string, base?: EditBase): Promise<SharedMcpView> {
  parseMcpConfig(text, paths.mcp);
  requireContentBase(fileTarget(paths.dataDir, paths.mcp), await readTextOrEmpty(paths.mcp), base);
  await writeFileAtomic(paths.mcp, text.endsWith('\n') ? text : `${text}\n`);
  return readSharedMcp(paths);
}
