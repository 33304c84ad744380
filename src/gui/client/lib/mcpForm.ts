/**
 * mcp.json (Claude Desktop `mcpServers` format) as a form and back: one row per server, stdio (command, args,
 * env) or Streamable HTTP (url, headers), enabled or not. Keys the form does not know — at the top and inside a
 * server — ride along unchanged, so switching between the form and the raw JSON never loses anything. The
 * server validates the text again before it writes; these checks only keep the Save button honest.
 */

/** One name/value pair of env or headers. */
export interface NamedValue {
  name: string;
  value: string;
}

/** One server as the form edits it. */
export interface McpFormServer {
  name: string;
  kind: 'stdio' | 'http';
  enabled: boolean;
  command: string;
  args: string[];
  env: NamedValue[];
  url: string;
  headers: NamedValue[];
  /** Keys of this server the form does not edit. */
  extra: Record<string, unknown>;
}

/** The whole file as a form. */
export interface McpForm {
  servers: McpFormServer[];
  /** Top-level keys besides `mcpServers`. */
  extra: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const KNOWN = new Set(['command', 'args', 'env', 'url', 'headers', 'enabled']);

function pairs(value: unknown): NamedValue[] {
  if (!isObject(value)) return [];
  return Object.entries(value).map(([name, v]) => ({ name, value: typeof v === 'string' ? v : JSON.stringify(v) }));
}

/** An empty server row of the given kind. */
export function blankServer(kind: McpFormServer['kind'], name = ''): McpFormServer {
  return { name, kind, enabled: true, command: '', args: [], env: [], url: '', headers: [], extra: {} };
}

/** The form for a file's text, or why the text cannot be shown as a form. */
export function formFromText(text: string): { ok: true; form: McpForm } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, form: { servers: [], extra: {} } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (!isObject(value)) return { ok: false, error: 'the top level must be a JSON object' };
  const { mcpServers, ...extra } = value;
  if (mcpServers !== undefined && !isObject(mcpServers)) return { ok: false, error: '"mcpServers" must be an object' };
  const servers: McpFormServer[] = [];
  for (const [name, entry] of Object.entries(mcpServers ?? {})) {
    if (!isObject(entry)) return { ok: false, error: `server "${name}" must be an object` };
    const rest: Json = {};
    for (const [k, v] of Object.entries(entry)) if (!KNOWN.has(k)) rest[k] = v;
    servers.push({
      name,
      kind: entry.url !== undefined && entry.command === undefined ? 'http' : 'stdio',
      enabled: entry.enabled !== false,
      command: typeof entry.command === 'string' ? entry.command : '',
      args: Array.isArray(entry.args) ? entry.args.map(String) : [],
      env: pairs(entry.env),
      url: typeof entry.url === 'string' ? entry.url : '',
      headers: pairs(entry.headers),
      extra: rest,
    });
  }
  return { ok: true, form: { servers, extra } };
}

function record(list: readonly NamedValue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of list) if (name.trim() !== '') out[name.trim()] = value;
  return out;
}

/** The file text for a form (2-space JSON, trailing newline). */
export function textFromForm(form: McpForm): string {
  const mcpServers: Json = {};
  for (const s of form.servers) {
    const entry: Json = { ...s.extra };
    if (s.kind === 'stdio') {
      entry.command = s.command.trim();
      entry.args = s.args.filter((a) => a !== '');
      if (s.env.some((e) => e.name.trim() !== '')) entry.env = record(s.env);
    } else {
      entry.url = s.url.trim();
      if (s.headers.some((h) => h.name.trim() !== '')) entry.headers = record(s.headers);
    }
    entry.enabled = s.enabled;
    mcpServers[s.name.trim()] = entry;
  }
  return `${JSON.stringify({ ...form.extra, mcpServers }, null, 2)}\n`;
}

/** What keeps the form from being saved: empty or repeated names, a stdio server without a command, a bad URL. */
export function formProblems(form: McpForm): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  form.servers.forEach((s, i) => {
    const name = s.name.trim();
    const label = name === '' ? `#${i + 1}` : `"${name}"`;
    if (name === '') problems.push(`server ${label}: name is empty`);
    else if (seen.has(name)) problems.push(`server ${label}: the name is used twice`);
    seen.add(name);
    if (s.kind === 'stdio' && s.command.trim() === '') problems.push(`server ${label}: command is empty`);
    if (s.kind === 'http' && !/^https?:\/\/\S+$/.test(s.url.trim())) problems.push(`server ${label}: url must start with http:// or https://`);
  });
  return problems;
}
