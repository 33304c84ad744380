/**
 * Hostile model replies (reliability suite), end to end on the built binary: a loopback "model" that floods
 * (tens of MB, chunked, or a declared Content-Length of 300 MB), answers malformed JSON, goes silent after the
 * headers, or asks for a tool call on every round. Held when every ask ends by itself with a defined exit code (never
 * a signal, never 1), stderr names the reason (LLM_RESPONSE_TOO_LARGE, LLM_PARSE, LLM_TIMEOUT, the tool limit), and
 * the endless tool loop stops within its round limit.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliBudget, describeRun, makeVillage, runCli, Temps } from '../cli/support/cliProcess.js';
import { requireDist } from '../cli/support/cliProcess.js';
import { pick, seeded, Tally } from './support/tally.js';

const temps = new Temps();
let server: Server;
let port = 0;
const requests = new Map<string, number>();
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  temps.cleanup();
});

function floodBody(res: ServerResponse, megabytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"');
  const chunk = 'x'.repeat(1024 * 1024);
  let sent = 0;
  const more = (): void => {
    while (sent < megabytes) {
      sent += 1;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end('"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}');
  };
  res.on('error', () => undefined);
  more();
}

beforeAll(async () => {
  requireDist();
  server = createServer((req, res) => {
    req.resume();
    const kind = (req.url ?? '').split('/')[1] ?? '';
    requests.set(kind, (requests.get(kind) ?? 0) + 1);
    res.on('error', () => undefined);
    const size = Number((req.url ?? '').split('/')[2] ?? '0');
    switch (kind) {
      case 'flood':
        return floodBody(res, size);
      case 'declared':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) });
        res.write('{"choices":[');
        return; // and never more
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"choices":[{"message":{"role":"assistant","content":"half');
      case 'silent':
        res.writeHead(200, { 'content-type': 'application/json' });
        return; // headers, then nothing until the client gives up
      case 'tools':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({
          id: 'x', object: 'chat.completion',
          choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: `c${Math.random()}`, type: 'function', function: { name: 'remember', arguments: JSON.stringify({ text: `note ${Math.random()}` }) } }] } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }));
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});

interface Hostile {
  kind: string;
  path: (next: () => number) => string;
  expect: RegExp;
  codes: number[];
  /** The template's maxResponseBytes (absent = the 8 MiB default). */
  cap?: number;
}

const HOSTILE: Hostile[] = [
  { kind: 'flood', path: (next) => `flood/${16 + pick(next, 48)}`, expect: /LLM_RESPONSE_TOO_LARGE/, codes: [6] },
  // A template's own cap (read by world.json's fast reader too): a 1 MB reply past 4096 bytes.
  { kind: 'flood', path: () => 'flood/1', expect: /more than 4096 bytes/, codes: [6], cap: 4096 },
  { kind: 'declared', path: () => 'declared/0', expect: /LLM_RESPONSE_TOO_LARGE/, codes: [6] },
  { kind: 'malformed', path: () => 'malformed/0', expect: /LLM_PARSE/, codes: [6] },
  { kind: 'silent', path: () => 'silent/0', expect: /LLM_TIMEOUT/, codes: [6] },
  { kind: 'tools', path: () => 'tools/0', expect: /\[TOOL_LIMIT\]/, codes: [0, 6] },
];

describe('reliability: hostile model replies', () => {
  it('floods, malformed bodies, silence and endless tool calls each end the ask by itself with a named reason', { timeout: cliBudget(HOSTILE.length * 2) }, async () => {
    const tally = new Tally('hostile-replies');
    const next = seeded(5);
    for (let round = 0; round < 2; round += 1) {
      for (const h of HOSTILE) {
        const dir = makeVillage(temps, {
          baseUrl: `http://127.0.0.1:${port}/${h.path(next)}/v1`,
          credential: 'not_required',
          agents: [{ id: 'desk', maxToolIterations: 4 }],
          world: {},
        });
        const { readFileSync, writeFileSync } = await import('node:fs');
        const worldFile = `${dir}/workspace/world.json`;
        const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { modelTemplates: Array<Record<string, unknown>>; agents: Array<Record<string, unknown>> };
        // Only silence waits on the request timeout; a flood must meet its cap, never a 1 s clock on a busy machine.
        world.modelTemplates[0]!['requestTimeoutSecs'] = h.kind === 'silent' ? 1 : 60;
        if (h.cap !== undefined) world.modelTemplates[0]!['maxResponseBytes'] = h.cap;
        world.agents[0]!['enabledTools'] = ['remember'];
        writeFileSync(worldFile, JSON.stringify(world));
        const before = requests.get(h.kind) ?? 0;
        const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', 'hello'], {});
        const asked = (requests.get(h.kind) ?? 0) - before;
        const ran = describeRun(run);
        const label = `${h.kind} round ${round}: ${ran.slice(0, 40)} … ${ran.slice(-400)}`;
        tally.check(
          label,
          run.signal !== null
            ? `killed by ${run.signal}`
            : !h.codes.includes(run.code ?? -1)
              ? `exit ${run.code}`
              : !h.expect.test(run.stderr)
                ? `stderr does not name ${h.expect}`
                : h.kind === 'tools' && asked > 8
                  ? `${asked} model calls for a 4-round limit`
                  : null,
        );
      }
    }
    tally.finish(HOSTILE.length * 2);
  });
});
