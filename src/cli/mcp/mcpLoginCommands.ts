/**
 * `fuseforks-cli mcp login|logout|status`: OAuth logins of the village's HTTP MCP servers (shared `mcp.json` and
 * each agent's own), kept in the chosen secret store (keyring; `--secrets env` is read-only: status only). Reads
 * the mcp.json files and the store only, so it also works beside a running serve or GUI (which read the store on
 * their next connect). Only names, scopes and expiry are ever printed, never a token.
 */
import { openSecretStore, type SecretSource } from '../../core/secrets/openSecretStore.js';
import { envNameForKey } from '../../core/secrets/secretNames.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import { isSafeIdentifier } from '../../core/world/identifiers.js';
import { isFuseforksError } from '../../core/errors.js';
import { openInBrowser } from '../../host/mcp/browserOpener.js';
import { readMcpConfig, type McpHttpConfig, type McpServerConfig } from '../../host/mcp/mcpConfig.js';
import { exchangePastedCode, McpLoopbackLogin, parsePastedCode } from '../../host/mcp/mcpLogin.js';
import { McpOAuthProvider } from '../../host/mcp/mcpOAuthProvider.js';
import { mcpOAuthKey, parseMcpOAuthState, summarizeMcpOAuthState, type McpOAuthSummary } from '../../host/mcp/mcpOAuthState.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import { jsonText } from '../jsonFormat.js';
import type { CliOutput } from '../output.js';
import { readSecretValue, type SecretInputStream } from '../manage/secretInput.js';

/** What every mcp command takes. */
export interface McpCommandOptions {
  dataDir: string;
  json: boolean;
  secrets: SecretSource;
  /** Only this agent's own mcp.json (else the shared one, then any agent's). */
  agent?: string;
}

/** One configured server as the mcp commands see it. */
interface Located {
  config: McpServerConfig;
  agentId: string | null;
}

/** Every configured server: shared first, then each agent's own (a broken file is an error naming it). */
async function locateAll(dataDir: string): Promise<Located[]> {
  const paths = villagePaths(dataDir);
  const out: Located[] = (await readMcpConfig(paths.mcp)).map((config) => ({ config, agentId: null }));
  const load = await loadWorld(paths, { locale: systemLocale() });
  if (load.kind === 'loaded') {
    for (const agent of load.doc.world.agents) {
      if (!isSafeIdentifier(agent.id)) continue;
      for (const config of await readMcpConfig(paths.agentFile(agent.id, 'mcp'))) out.push({ config, agentId: agent.id });
    }
  }
  return out;
}

function fail(output: CliOutput, code: string, message: string, fix: string, exit: ExitCode = EXIT.coreError): ExitCode {
  output.note({ level: 'error', code, message, fix });
  return exit;
}

function errorExit(output: CliOutput, error: unknown): ExitCode {
  if (isFuseforksError(error)) return fail(output, error.code, error.message, error.fix ?? 'see the message');
  return fail(output, 'MCP_FAILED', error instanceof Error ? error.message : String(error), 'check the server URL and that its authorization server answers');
}

/** The HTTP server named `name` (in `--agent`'s file when given), or an exit after saying why. */
async function findServer(options: McpCommandOptions & { name: string }, output: CliOutput): Promise<McpHttpConfig | ExitCode> {
  let all: Located[];
  try {
    all = await locateAll(options.dataDir);
  } catch (error) {
    return errorExit(output, error);
  }
  const hit = all.find((s) => s.config.name === options.name && (options.agent === undefined ? true : s.agentId === options.agent));
  if (hit === undefined) {
    const names = [...new Set(all.filter((s) => s.config.kind === 'http').map((s) => s.config.name))];
    return fail(output, 'ARGUMENT', `no MCP server "${options.name}"${options.agent === undefined ? '' : ` in agents/${options.agent}/mcp.json`}`, names.length === 0 ? 'add an HTTP server ({"url": "…"}) to mcp.json first' : `HTTP servers: ${names.join(', ')}`, EXIT.argumentError);
  }
  if (hit.config.kind !== 'http') return fail(output, 'ARGUMENT', `MCP server "${options.name}" is a stdio server; OAuth is for HTTP servers ("url")`, 'log in to an HTTP server instead', EXIT.argumentError);
  return hit.config;
}

/** The store, refusing the read-only env store for a command that writes. */
function writableStore(options: McpCommandOptions, command: string, output: CliOutput): SecretStore | ExitCode {
  if (options.secrets === 'env') {
    return fail(output, 'SECRET_STORE_READ_ONLY', `mcp ${command} writes the OS keyring; --secrets env is read-only`, 'log in where a keyring runs, then carry the value (mcp status --secrets keyring names the variable) into the container as a secret', EXIT.coreError);
  }
  return openSecretStore(options.secrets);
}

/** `mcp login NAME`. */
export async function runMcpLogin(
  options: McpCommandOptions & { name: string; code?: string; clientSecretStdin: boolean; browser: boolean; waitSecs?: number },
  input: SecretInputStream,
  output: CliOutput,
): Promise<ExitCode> {
  const config = await findServer(options, output);
  if (typeof config === 'number') return config;
  const store = writableStore(options, 'login', output);
  if (typeof store === 'number') return store;
  try {
    if (options.clientSecretStdin) {
      const clientId = config.oauth?.clientId;
      if (clientId === undefined) return fail(output, 'ARGUMENT', `--client-secret-stdin needs "oauth": {"clientId": "…"} in the entry of "${config.name}"`, 'add the pre-registered client id to mcp.json, then run again', EXIT.argumentError);
      const secret = await readSecretValue(input, (text) => process.stderr.write(text), `Client secret of ${clientId} (not shown): `);
      if (secret === null || secret.trim() === '') return fail(output, 'ARGUMENT', 'no client secret was given; nothing was stored', 'pipe it in: printf %s "$SECRET" | fuseforks-cli mcp login NAME -d DIR --client-secret-stdin', EXIT.argumentError);
      const key = mcpOAuthKey(config.url);
      const state = parseMcpOAuthState(store.get(key));
      store.set(key, JSON.stringify({ ...state, client: { client_id: clientId, client_secret: secret.trim() } }));
    }
    if (options.code !== undefined) {
      const pasted = parsePastedCode(options.code);
      if (pasted === null) return fail(output, 'ARGUMENT', '--code is empty or a URL without a code', 'paste the code (or the whole address the browser ended at)', EXIT.argumentError);
      await exchangePastedCode(config, store, pasted.code);
    }
    const login = await McpLoopbackLogin.start(config, store, {
      say: (line) => process.stderr.write(`${line}\n`),
      open: async (url) => {
        if (!options.browser) return;
        const why = await openInBrowser(url.href);
        if (why !== null) process.stderr.write(`The browser did not open (${why}); open the address above yourself.\n`);
      },
      ...(options.waitSecs === undefined ? {} : { waitMs: options.waitSecs * 1000 }),
    });
    try {
      const connection = await login.connect();
      const tools = connection.tools.map((t) => t.name);
      await connection.close();
      const summary = summarizeMcpOAuthState(login.provider.read());
      if (options.json) output.stdout(jsonText({ server: config.name, loggedIn: summary.loggedIn, scopes: summary.scopes, tools }));
      else output.stdout(`${config.name}: ${summary.loggedIn ? `logged in${summary.scopes.length > 0 ? ` (scopes: ${summary.scopes.join(' ')})` : ''}` : 'connected (the server asked for no login)'}; ${tools.length} tool(s)`);
      return EXIT.ok;
    } finally {
      await login.close();
    }
  } catch (error) {
    return errorExit(output, error);
  }
}

/** `mcp logout NAME`: forgets the server's tokens and registration (the authorization server is not asked). */
export async function runMcpLogout(options: McpCommandOptions & { name: string }, output: CliOutput): Promise<ExitCode> {
  const config = await findServer(options, output);
  if (typeof config === 'number') return config;
  const store = writableStore(options, 'logout', output);
  if (typeof store === 'number') return store;
  try {
    new McpOAuthProvider(config, store).forget();
  } catch (error) {
    return errorExit(output, error);
  }
  output.stdout(options.json ? jsonText({ server: config.name, loggedIn: false }) : `${config.name}: logged out (tokens and client registration forgotten)`);
  return EXIT.ok;
}

/** One row of `mcp status`. */
export interface McpStatusRow extends McpOAuthSummary {
  server: string;
  agentId: string | null;
  url: string;
  /** The entry declares OAuth (`"oauth"`), so a run without a login has no tools from it. */
  oauth: boolean;
  /** The variable `--secrets env` reads the login from. */
  variable: string;
}

/** `mcp status`: every HTTP server and its login (never a token). */
export async function runMcpStatus(options: McpCommandOptions, output: CliOutput): Promise<ExitCode> {
  let all: Located[];
  try {
    all = await locateAll(options.dataDir);
  } catch (error) {
    return errorExit(output, error);
  }
  const store = openSecretStore(options.secrets);
  const rows: McpStatusRow[] = [];
  try {
    for (const { config, agentId } of all) {
      if (config.kind !== 'http' || (options.agent !== undefined && agentId !== options.agent)) continue;
      const key = mcpOAuthKey(config.url);
      rows.push({ server: config.name, agentId, url: config.url, oauth: config.oauth !== undefined, variable: envNameForKey(key), ...summarizeMcpOAuthState(parseMcpOAuthState(store.get(key))) });
    }
  } catch (error) {
    return errorExit(output, error);
  }
  if (options.json) {
    output.stdout(jsonText({ store: options.secrets, servers: rows }));
    return EXIT.ok;
  }
  if (rows.length === 0) output.stdout('No HTTP MCP servers in mcp.json.');
  for (const r of rows) {
    const where = r.agentId === null ? 'shared' : `agent ${r.agentId}`;
    const login = r.loggedIn ? `logged in${r.scopes.length > 0 ? ` (scopes: ${r.scopes.join(' ')})` : ''}${r.expiresAt !== null ? `, expires ${new Date(r.expiresAt).toISOString()}` : ''}${r.refreshable ? ', refreshable' : ''}` : r.oauth ? 'needs login' : 'no login stored';
    output.stdout(`${r.server}  ${where}  ${login}${options.secrets === 'env' ? `  (${r.variable})` : ''}`);
  }
  return EXIT.ok;
}
