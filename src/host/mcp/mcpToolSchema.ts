/**
 * Which MCP tools of one scope (shared mcp.json, or one agent's) reach a model (data_contract.yaml `prompt_caps`).
 * A tool whose input schema is not a JSON Schema Ajv can compile (`type: "bogus"`, a `$ref` to nothing) is dropped
 * with a warning naming its server and tool: a provider would refuse the whole request, or a model guess at it.
 * Tools are taken in `{server}__{tool}` name order — the order the turn's tool cap keeps MCP tools in — and only
 * the first MAX_TOOLS_PER_AGENT valid ones are kept, so a server listing 10,000 tools costs 128 compiles, not
 * 10,000. `admitMcpTools` is pure over its `check`; `ajvToolSchemaCheck` is the check with Ajv (the JSON Schema
 * library the MCP SDK already brings).
 */
import { Ajv } from 'ajv';
import { MAX_TOOLS_PER_AGENT } from '../../core/turn/promptCaps.js';

/** null = a usable JSON Schema; else why not (Ajv's words). */
export type ToolSchemaCheck = (schema: Record<string, unknown>) => string | null;

/**
 * Ajv (draft-07 keywords, strict off so vendor keywords pass) compiling each schema once and forgetting it. The
 * `$schema` key is not looked at: the keywords are, whatever draft the server names.
 */
export function ajvToolSchemaCheck(): ToolSchemaCheck {
  let ajv: Ajv | null = null;
  return (schema) => {
    ajv ??= new Ajv({ strict: false, logger: false, addUsedSchema: false, validateFormats: false });
    const { $schema: _named, $id: _id, ...rest } = schema;
    try {
      ajv.compile(rest);
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      ajv.removeSchema(rest);
    }
  };
}

/** One tool of the scope before admission. */
export interface McpToolCandidate {
  /** Model-facing `{server}__{tool}` name. */
  name: string;
  server: string;
  tool: string;
  parameters: Record<string, unknown>;
}

/** What admission came to: kept tools (name order), dropped bad schemas, and the names left over the cap. */
export interface McpAdmission<T extends McpToolCandidate> {
  admitted: T[];
  invalid: { server: string; tool: string; reason: string }[];
  overCap: string[];
}

/** Admits valid tools in name order up to `max`; the rest are over the cap (never checked). Pure over `check`. */
export function admitMcpTools<T extends McpToolCandidate>(candidates: readonly T[], check: ToolSchemaCheck, max: number = MAX_TOOLS_PER_AGENT): McpAdmission<T> {
  const ordered = [...candidates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: McpAdmission<T> = { admitted: [], invalid: [], overCap: [] };
  for (const candidate of ordered) {
    if (out.admitted.length >= max) {
      out.overCap.push(candidate.name);
      continue;
    }
    const reason = check(candidate.parameters);
    if (reason === null) out.admitted.push(candidate);
    else out.invalid.push({ server: candidate.server, tool: candidate.tool, reason });
  }
  return out;
}
