/**
 * A sentinel secret through every way out (reliability suite): given with `--secrets env`, it must reach the model
 * provider's Authorization header and nothing else. Runs `check`, an `ask` whose model calls `run` (reading
 * /proc/$PPID/environ) and an MCP stdio tool (a child that dumps its own and the runtime's environment to stderr and
 * to its result), and a `serve` whose door answers an external client. Then every output is scanned: stdout and
 * stderr of each command, every request body the model received, the door's answer, and every file under the data
 * dir (log, session store, run.json, shelf). Each scanned place is one try.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, filesUnder, freePort, letAgentRun, makeVillage, ROOT, runCli, startCli, useCliSuite } from '../cli/support/cliProcess.js';
import { Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const SENTINEL = 'sk-proj-SENTINELeverywhere-91d0c7b35e2a';
const ENV = { FUSEFORKS_SECRET_STUB: SENTINEL };
const TOKEN = '0123456789abcdef0123456789abcdef';

describe('reliability: a sentinel secret through every way out', () => {
  it('check, ask with run and an MCP child, serve with the door: the key leaves only in the Authorization header', { timeout: cliBudget(4) }, async () => {
    const tally = new Tally('secret-sentinel');
    const seen = (where: string, text: string): void => tally.check(where, text.includes(SENTINEL) ? 'holds the sentinel' : null);
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    letAgentRun(dir, 'desk', ['sh *'], temps.make('ff-sentinel-work-'));
    writeFileSync(join(dir, 'workspace/mcp.json'), JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [join(ROOT, 'test/fixtures/mcp/envProbeServer.mjs')] } } }));

    const check = await runCli(['check', '--for', 'serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], ENV);
    tally.check('check exits 0', check.code === 0 ? null : describeRun(check));
    seen('check stdout', check.stdout);
    seen('check stderr', check.stderr);

    stub().enqueueAll([
      reply.toolCalls([
        { name: 'run', args: { command: 'sh', args: ['-c', 'tr "\\0" "\\n" < /proc/$PPID/environ'] } },
        { name: 'probe__parent_environ', args: {} },
      ]),
      reply.text('looked around'),
    ]);
    const ask = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--run-approval', 'required', 'look'], ENV);
    tally.check('ask answers', ask.code === 0 && ask.stdout === 'looked around\n' ? null : describeRun(ask));
    seen('ask stdout', ask.stdout);
    seen('ask stderr (MCP child stderr included)', ask.stderr);
    tally.check('the MCP child did run and read its parent', ask.stderr.includes('parent PATH=') ? null : 'no parent environ line on stderr');
    const toolResults = JSON.stringify(stub().requests[1]?.body ?? {});
    tally.check('the tool results reached the model', toolResults.includes('parent PATH=') && toolResults.includes('PATH=') ? null : 'missing');
    seen('what the model received after the tools (run + MCP results)', toolResults);
    tally.check('the key did reach the provider', stub().requests[0]?.headers.authorization === `Bearer ${SENTINEL}` ? null : 'no Authorization header with the key');

    const port = await freePort();
    writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port, token: TOKEN }), { mode: 0o600 });
    stub().reset();
    stub().respond(() => reply.text('served'));
    const serve = startCli(['serve', '--data-dir', dir, '--start', 'batch', '--secrets', 'env'], ENV);
    await serve.stderrLine((l) => l.includes('SERVING'));
    const client = new Client({ name: 'outside', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const answer = await client.callTool({ name: 'ask_fuseforks', arguments: { message: 'hello door' } });
    await client.close();
    serve.child.kill('SIGTERM');
    const served = await serve.done;
    tally.check('serve closes with 0', served.code === 0 ? null : describeRun(served));
    tally.check('the door answered', JSON.stringify(answer.content).includes('served') ? null : JSON.stringify(answer));
    seen('door answer', JSON.stringify(answer));
    seen('serve stdout', served.stdout);
    seen('serve stderr', served.stderr);
    for (const request of stub().requests) seen(`model request body ${request.index}`, JSON.stringify(request.body));
    for (const file of filesUnder(dir)) seen(`file ${file.slice(dir.length)}`, readFileSync(file, 'latin1'));
    tally.finish(10);
  });
});
