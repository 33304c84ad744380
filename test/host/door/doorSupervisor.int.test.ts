/**
 * The door in front of the real Supervisor (scripted fixture worker from test/actors, compiled worker loop
 * from dist/): the one-at-a-time gate is the supervisor's own, reached through the SDK's real client.
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

  it('answers through the reception; a concurrent ask gets EXTERNAL_BUSY; an interrupted ask is text, not an error', async () => {
    const first = await sdkClient(door.port, 'first-client');
    const second = await sdkClient(door.port, 'second-client');
    clients.push(first, second);

    const hello = await first.callTool({ name: 'ask_fuseforks', arguments: { message: 'hello' } });
    expect(hello.isError).toBeFalsy();
    expect(textOf(hello)).toBe('A:hello');
    expect(v.diag.notes.some((n) => n.kind === 'reply' && n.fields.to === 'external:first-client')).toBe(true);

    const hanging = first.callTool({ name: 'ask_fuseforks', arguments: { message: 'hang' } });
    await until(() => v.events.some((e) => e.type === 'agentTyping' && e.active), 'the reception is in a turn');
    const busy = await second.callTool({ name: 'ask_fuseforks', arguments: { message: 'me too' } });
    expect(busy.isError).toBe(true);
    expect(textOf(busy)).toContain('EXTERNAL_BUSY');

    await v.sup.interruptAll();
    const cut = await hanging;
    expect(cut.isError).toBeFalsy();
  });

  it('a stopped reception is a tool error carrying NOT_RUNNING', async () => {
    await v.sup.stopAgent('A');
    const client = await sdkClient(door.port, 'late');
    clients.push(client);
    const refused = await client.callTool({ name: 'ask_fuseforks', arguments: { message: 'anyone?' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('NOT_RUNNING');
  });
});
