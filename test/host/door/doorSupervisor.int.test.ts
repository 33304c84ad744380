/**
 * The door in front of the real Supervisor (scripted fixture worker from test/actors, compiled worker loop
 * from dist/): the external mailbox is the supervisor's own (arrival order, 16 waiting at most, one served at a
 * time), reached through the SDK's real client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDoor, type Door } from '../../../src/host/door/openDoor.js';
import { agent, until, village, world, type Village } from '../../actors/support/villageFixture.js';

const TOKEN = '00112233445566778899aabbccddeeff';

async function sdkClient(port: number, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  }));
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');

describe('door + real Supervisor', () => {
  let v: Village;
  let door: Door;
  const clients: Client[] = [];

  beforeAll(async () => {
    v = village(world([agent('A')]));
    await v.sup.startAgent('A');
    door = await openDoor({ port: 0, token: TOKEN, askExternal: (client, message) => v.sup.askExternalOutcome(client, message) });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await door?.close();
    await v?.close();
  });

  it('answers through the reception; a concurrent ask waits its turn; an interrupted ask is text, not an error', async () => {
    const first = await sdkClient(door.port, 'first-client');
    const second = await sdkClient(door.port, 'second-client');
    clients.push(first, second);

    const hello = await first.callTool({ name: 'ask_fuseforks', arguments: { message: 'hello' } });
    expect(hello.isError).toBeFalsy();
    expect(textOf(hello)).toBe('A:hello');
    expect(hello._meta).toMatchObject({ 'fuseforks/outcome': { state: 'answered' } });
    expect(v.diag.notes.some((n) => n.kind === 'reply' && n.fields.to === 'external:first-client')).toBe(true);

    v.events.length = 0; // the typing events of 'hello' must not count as the hang's
    const hanging = first.callTool({ name: 'ask_fuseforks', arguments: { message: 'hang' } });
    await until(() => v.events.some((e) => e.type === 'agentTyping' && e.active), 'the reception is in a turn');
    const waiting = second.callTool({ name: 'ask_fuseforks', arguments: { message: 'me too' } });

    await v.sup.interruptAll();
    const cut = await hanging;
    expect(cut.isError).toBeFalsy();
    expect(cut._meta).toMatchObject({ 'fuseforks/outcome': { state: 'interrupted' } });
    const served = await waiting;
    expect(served.isError).toBeFalsy();
    expect(textOf(served)).toBe('A:me too');
  });

  it('50 concurrent door calls: 1 served and 16 queued are all answered in turn, only the 33 beyond the mailbox get EXTERNAL_BUSY', async () => {
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => sdkClient(door.port, `c${i}`)));
    clients.push(...many);
    const settled: Array<{ isError: boolean; text: string }> = [];
    const calls = many.map((c) =>
      c.callTool({ name: 'ask_fuseforks', arguments: { message: 'hang' } }, undefined, { timeout: 120_000 }).then((r) => {
        settled.push({ isError: r.isError === true, text: textOf(r) });
      }),
    );
    await until(() => settled.length === 33, 'the calls beyond the mailbox are refused at once', 30_000);
    expect(settled.every((r) => r.isError && r.text.includes('EXTERNAL_BUSY'))).toBe(true);
    // Each served request hangs until interrupted; then the next one in the mailbox is delivered.
    while (settled.length < 50) {
      const before = settled.length;
      await until(() => v.events.some((e) => e.type === 'agentTyping' && e.active && e.agentId === 'A'), 'A in a turn', 30_000);
      v.events.length = 0;
      await v.sup.interruptAll();
      await until(() => settled.length > before, 'that request answered', 30_000);
    }
    await Promise.all(calls);
    expect(settled.filter((r) => r.isError)).toHaveLength(33);
    expect(settled.filter((r) => !r.isError)).toHaveLength(17);
  }, 120_000);

  it('a stopped reception is a tool error carrying NOT_RUNNING', async () => {
    await v.sup.stopAgent('A');
    const client = await sdkClient(door.port, 'late');
    clients.push(client);
    const refused = await client.callTool({ name: 'ask_fuseforks', arguments: { message: 'anyone?' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('NOT_RUNNING');
  });
});
