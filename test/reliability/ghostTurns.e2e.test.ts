/**
 * Ghost turns (reliability suite, issue 28): callers of a real `serve`'s door (the BUILT CLI, loopback stub LLM) that
 * go away while their request waits in the village's external queue. Each seeded round holds one live request in
 * the model (the stub answers it only when the test says so), queues two to four more behind it over plain HTTP —
 * some live, some whose socket the test destroys once the door has taken the request (its response headers came) —
 * then lets the first one answer. Held when the first and every live caller get their own answer, and the stub
 * never sees a request of a caller that went away: the queue is FIFO, so a ghost that was not dropped would reach
 * the model before the live caller queued after it. Three more rounds destroy the socket of the request the model is
 * answering: held when that model call is cut (the stub sees its connection close) and the next caller is answered.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { cliBudget, freePort, makeVillage, useCliSuite, useServeChild } from '../cli/support/cliProcess.js';
import { pollUntil } from '../support/pollUntil.js';
import { pick, seeded, Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const TOKEN = '0123456789abcdef0123456789abcdef';
const ROUNDS = 6;
const serve = useServeChild();

interface Sent {
  req: ClientRequest;
  /** The response head (the door took the request). */
  head: Promise<IncomingMessage>;
  /** The whole body, once the response ended ('' if the socket was destroyed). */
  body: Promise<string>;
}

function post(port: number, body: unknown, session?: string): Sent {
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (session !== undefined) headers['mcp-session-id'] = session;
  let onHead: (res: IncomingMessage) => void = () => undefined;
  const head = new Promise<IncomingMessage>((resolve) => (onHead = resolve));
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, agent: false });
  const bodyText = new Promise<string>((resolve) => {
    req.on('response', (res) => {
      onHead(res);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', () => resolve(''));
      res.on('aborted', () => resolve(''));
    });
    req.on('error', () => resolve(''));
  });
  req.end(JSON.stringify(body));
  return { req, head, body: bodyText };
}

/** A fresh MCP session on the door: initialize + initialized; returns its id. */
async function openSession(port: number): Promise<string> {
  const init = post(port, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ghost-test', version: '1' } } });
  const res = await init.head;
  await init.body;
  const id = res.headers['mcp-session-id'];
  if (typeof id !== 'string') throw new Error(`initialize answered ${res.statusCode} without a session id`);
  await post(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, id).body;
  return id;
}

function call(port: number, session: string, message: string): Sent {
  return post(port, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_fuseforks', arguments: { message } } }, session);
}

/** The tool result's text in an SSE or JSON answer, or null. */
function answerText(body: string): string | null {
  for (const line of body.split('\n')) {
    const json = line.startsWith('data: ') ? line.slice(6) : line.startsWith('{') ? line : null;
    if (json === null) continue;
    const parsed = JSON.parse(json) as { result?: { content?: Array<{ text?: string }> } };
    const text = parsed.result?.content?.[0]?.text;
    if (text !== undefined) return text;
  }
  return null;
}

describe('reliability: ghost turns through serve\'s door', () => {
  it('a caller that disconnected while queued never reaches the model; the others are answered in order', { timeout: cliBudget(6) }, async () => {
    const tally = new Tally('ghost-turns');
    const next = seeded(288);
    let release: () => void = () => undefined;
    stub().respond(async (r) => {
      if (r.lastUserText.includes('hold-')) await new Promise<void>((resolve) => (release = resolve));
      const tag = /msg-\d+-\d+|hold-\d+/.exec(r.lastUserText)?.[0] ?? 'none';
      return reply.text(`answer to ${tag}`);
    });
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    const port = await freePort();
    writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ enabled: true, port, token: TOKEN }));
    await serve.start(dir, KEY);
    const tagsSeen = (): string[] => stub().requests.map((r) => /msg-\d+-\d+|hold-\d+/.exec(r.lastUserText)?.[0]).filter((t): t is string => t !== undefined);

    let ghostsTotal = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = tagsSeen().length;
      const holder = call(port, await openSession(port), `hold-${round}`);
      const reached = await pollUntil(() => tagsSeen().length > before, { limitMs: 60_000 });
      tally.check(`round ${round}: the held request reaches the stub`, reached ? null : 'it never did');
      const count = 2 + pick(next, 3);
      const ghostAt = pick(next, count - 1); // at least one ghost, never the last (a live caller is queued after it)
      const queued: Array<{ tag: string; ghost: boolean; sent: Sent }> = [];
      for (let i = 0; i < count; i += 1) {
        const ghost = i === ghostAt || (i < count - 1 && next() < 0.4);
        const tag = `msg-${round}-${i}`;
        const sent = call(port, await openSession(port), `please answer ${tag}`);
        await sent.head; // the door has taken it into the village's queue
        if (ghost) sent.req.destroy();
        queued.push({ tag, ghost, sent });
      }
      ghostsTotal += queued.filter((q) => q.ghost).length;
      release();
      const held = answerText(await holder.body);
      tally.check(`round ${round}: the held request is answered`, held === `answer to hold-${round}` ? null : `got ${JSON.stringify(held)}`);
      for (const q of queued.filter((x) => !x.ghost)) {
        const text = answerText(await q.sent.body);
        tally.check(`round ${round}: live ${q.tag} is answered`, text === `answer to ${q.tag}` ? null : `got ${JSON.stringify(text)}`);
      }
      const seen = tagsSeen().slice(before);
      const expected = [`hold-${round}`, ...queued.filter((q) => !q.ghost).map((q) => q.tag)];
      for (const q of queued.filter((x) => x.ghost)) {
        tally.check(`round ${round}: ghost ${q.tag} never reaches the model`, seen.includes(q.tag) ? `the stub saw ${JSON.stringify(seen)}` : null);
      }
      tally.check(`round ${round}: the model saw exactly the live requests, in order`, JSON.stringify(seen) === JSON.stringify(expected) ? null : `saw ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
    }
    tally.check('some ghosts were tried', ghostsTotal >= ROUNDS ? null : `only ${ghostsTotal}`);

    // A caller that goes away while its request is being answered: the model call is cut, the next caller served.
    for (let round = 0; round < 3; round += 1) {
      const before = stub().requests.length;
      const gone = call(port, await openSession(port), `hold-${ROUNDS + round}`);
      const reached = await pollUntil(() => stub().requests.length > before, { limitMs: 60_000 });
      const index = before;
      gone.req.destroy();
      const cut = reached && (await Promise.race([stub().waitForClose(index).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]));
      tally.check(`in-flight ${round}: the model call of a caller that went away is cut`, cut ? null : 'the stub call was not closed within 20 s');
      release();
      if (!cut) break; // one is enough to fail the case; the rest would only add waiting
      const tag = `msg-${ROUNDS + round}-0`;
      const text = answerText(await call(port, await openSession(port), `please answer ${tag}`).body);
      tally.check(`in-flight ${round}: the next caller is answered`, text === `answer to ${tag}` ? null : `got ${JSON.stringify(text)}`);
    }
    tally.finish(ROUNDS * 3);
  });
});
