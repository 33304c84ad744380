/**
 * VillageCommands on a real temp village: real world.json, schedules.json, agent folders, mcp.json. The
 * supervisor port is a small recorder (the supervisor is not under test here; the GUI e2e drives a real one).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { isFuseforksError } from '../../src/core/errors.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { villagePaths, type VillagePaths } from '../../src/core/village/paths.js';
import type { World } from '../../src/core/world/types.js';
import type { VillageCommands } from '../../src/host/villageCommands.js';
import { openCommands } from './support/openCommands.js';

let dir: string;
let paths: VillagePaths;
let events: CoreEvent[];
let worlds: World[];
let stopped: string[];
let running: Set<string>;
let secrets: MemorySecretStore;

function open(): Promise<VillageCommands> {
  return openCommands(paths, secrets, { events, worlds, stopped, running });
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    return isFuseforksError(error) ? error.code : String(error);
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-vc-'));
  paths = villagePaths(dir);
  mkdirSync(paths.workspace, { recursive: true });
  // An unknown key at the top and inside an agent must survive every rewrite.
  writeFileSync(
    paths.world,
    JSON.stringify({ futureKey: { keep: 1 }, language: 'en', modelTemplates: [], agents: [] }),
  );
  events = [];
  worlds = [];
  stopped = [];
  running = new Set();
  secrets = new MemorySecretStore();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('VillageCommands on a real village', () => {
  it('builds a village and every answer is what world.json now says', async () => {
    const vc = await open();
    let state = await vc.upsertTemplate({ id: 'tpl', name: 'Stub', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', credential: 'not_required' });
    expect(state.world.modelTemplates.map((t) => t.id)).toEqual(['tpl']);
    const a = await vc.createAgent({ name: 'Alice' });
    const b = await vc.createAgent({ name: 'Bob' });
    state = await vc.setTies(a.id, [b.id]);
    state = await vc.setPosition(a.id, 10, 20);
    state = await vc.setReception(a.id);
    state = await vc.setExternalName('CI bot');
    state = await vc.upsertGroup({ name: 'Day' });
    const onDisk = JSON.parse(readFileSync(paths.world, 'utf8')) as Record<string, unknown>;
    expect(onDisk.futureKey).toEqual({ keep: 1 });
    expect(state.world.agents.find((x) => x.id === 'alice')?.connectedAgents).toEqual(['bob']);
    expect(onDisk.topologyPositions).toEqual({ alice: { x: 10, y: 20 } });
    expect(onDisk.reception).toBe('alice');
    expect(onDisk.externalName).toBe('CI bot');
    expect(state.world.groups.map((g) => g.id)).toEqual(['day']);
    // Every world edit reached the supervisor and was announced.
    expect(worlds.at(-1)).toEqual(state.world);
    expect(events.filter((e) => e.type === 'topologyChanged').length).toBe(8);
  });

  it('refusals leave world.json byte-identical and emit nothing', async () => {
    const vc = await open();
    await vc.upsertTemplate({ id: 'tpl', name: 'Stub', model: 'm', credential: 'not_required' });
    await vc.createAgent({ name: 'Alice' });
    const before = readFileSync(paths.world, 'utf8');
    const n = events.length;
    expect(await code(vc.createAgent({ name: 'Alice' }))).toBe('DUPLICATE_AGENT_NAME');
    expect(await code(vc.setTies('alice', ['alice']))).toBe('INVALID_TOPOLOGY');
    expect(await code(vc.setTies('alice', ['ghost']))).toBe('INVALID_TOPOLOGY');
    expect(await code(vc.createAgent({ name: 'X', modelTemplateId: 'nope' }))).toBe('MODEL_TEMPLATE_NOT_FOUND');
    expect(await code(vc.removeTemplate('tpl'))).toBe('INVALID_TOPOLOGY');
    expect(await code(vc.writeSharedMcp('{"mcpServers": [1]}'))).toBe('CONFIG_PARSE');
    expect(readFileSync(paths.world, 'utf8')).toBe(before);
    expect(events.length).toBe(n);
    expect(existsSync(paths.mcp)).toBe(false);
  });

  it('delete stops a running servant, removes its folder, its schedules and inbound ties', async () => {
    const vc = await open();
    await vc.upsertTemplate({ id: 'tpl', name: 'Stub', model: 'm', credential: 'not_required' });
    await vc.createAgent({ name: 'Alice' });
    await vc.createAgent({ name: 'Bob' });
    await vc.setTies('alice', ['bob']);
    await vc.addSchedule({ to: 'bob', message: 'tick', recurrence: { kind: 'interval', everyMinutes: 5 } });
    await vc.addSchedule({ to: 'alice', message: 'tock', recurrence: { kind: 'daily', hour: 9, minute: 0 } });
    mkdirSync(paths.agent('bob').dir, { recursive: true });
    writeFileSync(paths.agent('bob').skill, 'skill');
    running.add('bob');
    const state = await vc.deleteAgent('bob');
    expect(stopped).toEqual(['bob']);
    expect(existsSync(paths.agent('bob').dir)).toBe(false);
    expect(state.schedules.map((s) => s.to)).toEqual(['alice']);
    expect(state.world.agents.map((a) => [a.id, a.connectedAgents])).toEqual([['alice', []]]);
    expect(JSON.parse(readFileSync(paths.schedules, 'utf8'))).toHaveLength(1);
  });

  it('API keys are write-only: stored, reported as hasKey, never in the state or the file', async () => {
    const vc = await open();
    await vc.upsertTemplate({ id: 'tpl', name: 'Stub', model: 'm' });
    let state = await vc.setApiKey('tpl', '  sk-secret-123  ');
    expect(secrets.get('tpl')).toBe('sk-secret-123');
    expect(state.hasKey).toEqual({ tpl: true });
    expect(state.world.modelTemplates[0]?.credential).toBe('keyring');
    expect(JSON.stringify(state)).not.toContain('sk-secret');
    expect(readFileSync(paths.world, 'utf8')).not.toContain('sk-secret');
    state = await vc.clearApiKey('tpl');
    expect(state.hasKey).toEqual({ tpl: false });
    expect(state.world.modelTemplates[0]?.credential).toBe('unset');
    expect(await code(vc.setApiKey('ghost', 'k'))).toBe('MODEL_TEMPLATE_NOT_FOUND');
  });

  it('schedules: add, pause, resume, delete', async () => {
    const vc = await open();
    await vc.upsertTemplate({ id: 'tpl', name: 'Stub', model: 'm', credential: 'not_required' });
    await vc.createAgent({ name: 'Alice' });
    expect(await code(vc.addSchedule({ to: 'ghost', message: 'x', recurrence: { kind: 'interval', everyMinutes: 5 } }))).toBe('AGENT_NOT_FOUND');
    let state = await vc.addSchedule({ to: 'alice', message: 'x', recurrence: { kind: 'weekly', weekday: 'mon', hour: 8, minute: 30 } });
    const id = state.schedules[0]!.id;
    state = await vc.setScheduleEnabled(id, false);
    expect(state.schedules[0]?.enabled).toBe(false);
    state = await vc.removeSchedule(id);
    expect(state.schedules).toEqual([]);
  });

  it('shared mcp.json round-trips and a valid file is written', async () => {
    const vc = await open();
    expect((await vc.readSharedMcp()).text).toBe('');
    const text = '{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}}}';
    expect((await vc.writeSharedMcp(text)).text).toBe(`${text}\n`);
  });
});
