/**
 * `fuseforks-cli mcp login|logout|status` — OAuth logins of HTTP MCP servers. Thin: parse, then the lazily loaded
 * runners in `../mcp/mcpLoginCommands.js` (docs/mcp-oauth.md).
 */
import { Args, Command, Flags } from '@oclif/core';
import { manageFlags, humanOutputOf as outputOf, secretsFlag } from '../flags.js';

const mcpFlags = {
  ...manageFlags,
  secrets: secretsFlag,
  agent: Flags.string({ description: 'The agent whose own agents/ID/mcp.json names the server (default: the shared mcp.json, then any agent\'s).' }),
};

const nameArg = { name: Args.string({ required: true, description: 'The server\'s name in mcp.json.' }) };

/** `mcp login NAME`. */
export class McpLogin extends Command {
  static override summary = 'Log in to an OAuth-protected HTTP MCP server: opens the authorization page, waits on a loopback redirect, keeps the tokens in the keyring.';
  static override description =
    'The page opens with $BROWSER (else xdg-open / open); the address is printed too. Where the browser cannot reach ' +
    'this machine\'s 127.0.0.1, copy the code (or the whole address it ended at) and run again with --code. ' +
    'Tokens, refresh tokens and a client secret live in the OS keyring only, never in mcp.json or a log.';
  static override examples = [
    '<%= config.bin %> mcp login tracker -d ./data',
    '<%= config.bin %> mcp login tracker -d ./data --no-browser',
    '<%= config.bin %> mcp login tracker -d ./data --code "http://127.0.0.1:8976/callback?code=…&state=…"',
    'printf %s "$CLIENT_SECRET" | <%= config.bin %> mcp login tracker -d ./data --client-secret-stdin',
  ];
  static override args = nameArg;
  static override flags = {
    ...mcpFlags,
    code: Flags.string({ description: 'The authorization code (or the redirected address) from an earlier mcp login whose redirect did not reach this machine.' }),
    'client-secret-stdin': Flags.boolean({ default: false, description: 'Read the pre-registered client\'s secret (oauth.clientId in mcp.json) from stdin and keep it in the keyring.' }),
    browser: Flags.boolean({ default: true, allowNo: true, description: 'Open the authorization page (--no-browser: only print it).' }),
    wait: Flags.integer({ min: 1, description: 'Seconds to wait for the browser to come back (default 300).' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(McpLogin);
    const { runMcpLogin } = await import('../mcp/mcpLoginCommands.js');
    process.exitCode = await runMcpLogin(
      {
        dataDir: flags['data-dir'],
        json: flags.json,
        secrets: flags.secrets,
        name: args.name,
        clientSecretStdin: flags['client-secret-stdin'],
        browser: flags.browser,
        ...(flags.agent === undefined ? {} : { agent: flags.agent }),
        ...(flags.code === undefined ? {} : { code: flags.code }),
        ...(flags.wait === undefined ? {} : { waitSecs: flags.wait }),
      },
      process.stdin,
      outputOf(flags),
    );
  }
}

/** `mcp logout NAME`. */
export class McpLogout extends Command {
  static override summary = 'Forget an HTTP MCP server\'s OAuth tokens and client registration (from the keyring).';
  static override examples = ['<%= config.bin %> mcp logout tracker -d ./data'];
  static override args = nameArg;
  static override flags = mcpFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(McpLogout);
    const { runMcpLogout } = await import('../mcp/mcpLoginCommands.js');
    process.exitCode = await runMcpLogout({ dataDir: flags['data-dir'], json: flags.json, secrets: flags.secrets, name: args.name, ...(flags.agent === undefined ? {} : { agent: flags.agent }) }, outputOf(flags));
  }
}

/** `mcp status`. */
export class McpStatus extends Command {
  static override summary = 'List the HTTP MCP servers and their OAuth login (scopes, expiry; never a token).';
  static override description = 'With --secrets env it names the FUSEFORKS_SECRET_MCP_OAUTH_* variable each login is read from.';
  static override examples = ['<%= config.bin %> mcp status -d ./data --json'];
  static override flags = mcpFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(McpStatus);
    const { runMcpStatus } = await import('../mcp/mcpLoginCommands.js');
    process.exitCode = await runMcpStatus({ dataDir: flags['data-dir'], json: flags.json, secrets: flags.secrets, ...(flags.agent === undefined ? {} : { agent: flags.agent }) }, outputOf(flags));
  }
}
