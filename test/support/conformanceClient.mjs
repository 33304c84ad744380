// The client the MCP conformance suite drives (`conformance client --command "node test/support/conformanceClient.mjs"`):
// the runtime's own MCP client code from the build (dist/): McpLoopbackLogin (the SDK's auth over McpOAuthProvider,
// a loopback callback), McpConnection (elicitation answered headless by the entry's setting). The "browser" follows
// the authorization URL with fetch, as a person's browser would follow the server's redirect to the loopback.
// The suite appends the server URL; MCP_CONFORMANCE_SCENARIO names the scenario, MCP_CONFORMANCE_CONTEXT its data.
import { McpLoopbackLogin } from '../../dist/host/mcp/mcpLogin.js';
import { MemorySecretStore } from '../../dist/core/secrets/secretStore.js';
import { mcpOAuthKey } from '../../dist/core/secrets/mcpOAuthKey.js';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

const oauth = { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
const store = new MemorySecretStore();
if (typeof context.client_id === 'string') {
  oauth.clientId = context.client_id;
  if (typeof context.client_secret === 'string') {
    store.set(mcpOAuthKey(url), JSON.stringify({ client: { client_id: context.client_id, client_secret: context.client_secret } }));
  }
}
const config = { kind: 'http', name: 'conformance', url, headers: {}, enabled: true, oauth, elicitation: 'accept-defaults' };

const login = await McpLoopbackLogin.start(config, store, {
  say: (line) => process.stderr.write(`${line}\n`),
  open: async (authorizationUrl) => {
    await fetch(authorizationUrl).then((r) => r.text()).catch((error) => process.stderr.write(`browser: ${error.message}\n`));
  },
  waitMs: 20_000,
  onHeadlessElicit: (server, answer, reason) => process.stderr.write(`elicitation from ${server}: ${answer.action} (${reason})\n`),
});
let exit = 0;
try {
  const connection = await login.connect();
  process.stderr.write(`connected; tools: ${connection.tools.map((t) => t.name).join(', ')}\n`);
  for (const tool of connection.tools) {
    const args = tool.name === 'add_numbers' ? { a: 2, b: 3 } : {};
    for (let round = 0; round < 3; round += 1) {
      login.provider.authorizationUrl = null;
      try {
        const result = await connection.call(tool.name, args, new AbortController().signal, 20_000);
        process.stderr.write(`${tool.name}: ${JSON.stringify(result).slice(0, 200)}\n`);
        break;
      } catch (error) {
        if (login.provider.authorizationUrl === null) throw error;
        await login.authorizeCaptured(); // step-up: the server asked for more scopes
      }
    }
  }
  await connection.close();
} catch (error) {
  process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
  exit = 1;
} finally {
  await login.close();
}
process.exit(exit);
