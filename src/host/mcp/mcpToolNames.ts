/**
 * Model-facing names and descriptions of MCP tools (reference ops.md §5.1): `{server}__{tool}`, characters
 * outside [A-Za-z0-9_-] become `_`, and above 64 chars the TAIL is kept (the tool part tells tools apart,
 * provider APIs reject longer names). Pure.
 */

/** Longest tool name providers accept, in chars. */
export const MCP_TOOL_NAME_MAX = 64;

/** The name the model sees for `tool` of `server`. */
export function mcpToolName(server: string, tool: string): string {
  const name = `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return name.length > MCP_TOOL_NAME_MAX ? name.slice(name.length - MCP_TOOL_NAME_MAX) : name;
}

/** The description the model sees: `[server] …` (the server's own text, or just the tag when it has none). */
export function mcpToolDescription(server: string, description: string | undefined): string {
  const text = (description ?? '').trim();
  return text === '' ? `[${server}]` : `[${server}] ${text}`;
}

/** A tool's input schema as a JSON Schema object; anything unusable becomes an empty object schema. */
export function mcpToolParameters(inputSchema: unknown): Record<string, unknown> {
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) {
    return { type: 'object', properties: {} };
  }
  const schema = { ...(inputSchema as Record<string, unknown>) };
  if (schema.type === undefined) schema.type = 'object';
  if (schema.type === 'object' && schema.properties === undefined) schema.properties = {};
  return schema;
}
