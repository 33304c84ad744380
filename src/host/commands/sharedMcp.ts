/**
 * The shared `workspace/mcp.json` as text for an editor: read ("" when absent) and write after validation with
 * the same parser the MCP client uses, so a file the GUI saves is a file the village can load. A refused text
 * leaves the file untouched (the error names the position).
 */
import { readTextOrEmpty } from '../../core/village/promptFiles.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import type { VillagePaths } from '../../core/village/paths.js';
import { parseMcpConfig } from '../mcp/mcpConfig.js';

/** Current text of the shared mcp.json ("" when the file does not exist). */
export async function readSharedMcp(paths: VillagePaths): Promise<{ text: string }> {
  return { text: await readTextOrEmpty(paths.mcp) };
}

/** Validates `text` as an mcpServers file (CONFIG_PARSE with line:column on failure), then writes it atomically. */
export async function writeSharedMcp(paths: VillagePaths, text: string): Promise<{ text: string }> {
  parseMcpConfig(text, paths.mcp);
  await writeFileAtomic(paths.mcp, text.endsWith('\n') ? text : `${text}\n`);
  return readSharedMcp(paths);
}
