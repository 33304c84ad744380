/**
 * Headless design (built binary): `agents add|edit|tie|untie|remove`, `templates add|edit|remove` and `village set
 * reception` leave world.json byte for byte as the same HostApi.village calls (the GUI's routes) leave a copy of the
 * same village, unknown keys kept; each `--json` object validates against its schema; a stale `--base` is refused
 * with EDIT_CONFLICT and the file untouched, the revision of the previous object is accepted; every change refuses
 * while another process holds the village, and `templates list` still answers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { expectJsonLine } from '../support/jsonSchemas.js';
import { cliBudget, describeRun, exampleVillage, holdVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();
const WORLD = 'workspace/world.json';

const world = (dir: string): string => readFileSync(join(dir, WORLD), 'utf8');

/** The example village with a key no screen knows, which every rewrite must keep. */
function village(): string {
  const dir = exampleVillage(temps);
  const doc = JSON.parse(world(dir)) as Record<string, unknown>;
  writeFileSync(join(dir, WORLD), `${JSON.stringify({ ...doc, handWritten: 'kept' }, null, 2)}\n`);
  return dir;
}

async function openHost(dir: string): Promise<HostApi> {
  return buildHost(new HostPaths(dir), { appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {} });
}

/** Runs a design command with --json; expects exit 0 and an object valid against `schema`. */
async function design(schema: string, args: string[]): Promise<Record<string, unknown>> {
  const run = await runCli([...args, '--json']);
  expect(run.code, describeRun(run)).toBe(0);
  return expectJsonLine(schema, run.stdout);
}

describe('headless design commands (built binary)', () => {
  it('each edit writes the same world.json bytes as HostApi.village (the GUI path); unknown keys kept', { timeout: cliBudget(10) }, async () => {
    const viaCli = village();
    const viaHost = village();
    const host = await openHost(viaHost);
    try {
      const added = await design('agents-change', ['agents', 'add', 'Night Owl', '-d', viaCli, '--template', 'demo']);
      expect(added.agent).toMatchObject({ agentId: 'night_owl', name: 'Night Owl', modelTemplateId: 'demo', connectedAgents: [] });
      await host.village.createAgent({ name: 'Night Owl', modelTemplateId: 'demo' });
      expect(world(viaCli)).toBe(world(viaHost));

      const edited = await design('agents-change', ['agents', 'edit', 'night_owl', '-d', viaCli, '--name', 'Night Owl 2', '--no-batch-start']);
      expect(edited.agent).toMatchObject({ name: 'Night Owl 2', batchStart: false });
      const spec = host.world().agents.find((a) => a.id === 'night_owl')!;
      await host.village.updateAgent('night_owl', { ...spec, name: 'Night Owl 2', batchStart: false });
      expect(world(viaCli)).toBe(world(viaHost));

      const tied = await design('agents-change', ['agents', 'tie', 'front', 'night_owl', '-d', viaCli]);
      const frontTies = host.world().agents.find((a) => a.id === 'front')!.connectedAgents;
      expect((tied.agent as { connectedAgents: string[] }).connectedAgents).toEqual([...frontTies, 'night_owl']);
      await host.village.setTies('front', [...frontTies, 'night_owl']);
      expect(world(viaCli)).toBe(world(viaHost));

      await design('agents-change', ['agents', 'untie', 'front', 'archivist', '-d', viaCli]);
      await host.village.setTies('front', host.world().agents.find((a) => a.id === 'front')!.connectedAgents.filter((t) => t !== 'archivist'));
      expect(world(viaCli)).toBe(world(viaHost));

      const template = await design('templates-change', ['templates', 'add', 'local', '-d', viaCli, '--base-url', 'http://127.0.0.1:11434/v1', '--model', 'qwen3', '--credential', 'not_required']);
      expect(template.template).toMatchObject({ id: 'local', model: 'qwen3', credential: 'not_required', hasKey: false });
      await host.village.upsertTemplate({ id: 'local', name: 'local', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3', credential: 'not_required' });
      expect(world(viaCli)).toBe(world(viaHost));

      await design('templates-change', ['templates', 'edit', 'local', '-d', viaCli, '--model', 'qwen4', '--no-stream']);
      await host.village.upsertTemplate({ ...host.world().modelTemplates.find((t) => t.id === 'local')!, model: 'qwen4', stream: false });
      expect(world(viaCli)).toBe(world(viaHost));

      expect((await design('village-change', ['village', 'set', 'reception', 'writer', '-d', viaCli])).reception).toBe('writer');
      await host.village.setReception('writer');
      expect(world(viaCli)).toBe(world(viaHost));

      expect((await design('agents-change', ['agents', 'remove', 'reviewer', '-d', viaCli])).removed).toBe('reviewer');
      await host.village.deleteAgent('reviewer');
      expect(world(viaCli)).toBe(world(viaHost));

      expect((await design('templates-change', ['templates', 'remove', 'local', '-d', viaCli])).removed).toBe('local');
      await host.village.removeTemplate('local');
      expect(world(viaCli)).toBe(world(viaHost));
      expect(JSON.parse(world(viaCli))).toMatchObject({ handWritten: 'kept' });

      const listed = await design('templates-list', ['templates', 'list', '-d', viaCli]);
      expect(listed).toMatchObject({ held: false, templates: [{ id: 'demo', provider: 'echo' }] });
    } finally {
      await host.close();
    }
  });

  it('a stale --base is EDIT_CONFLICT (1) with world.json untouched; the revision of the last object is accepted', { timeout: cliBudget(4) }, async () => {
    const dir = village();
    const first = await design('village-change', ['village', 'set', 'reception', 'writer', '-d', dir]);
    const rev = (first.revisions as Record<string, string>)[WORLD]!;
    // `rev` is current: the change goes through; from then on it is stale.
    expect((await design('village-change', ['village', 'set', 'reception', 'front', '-d', dir, '--base', rev])).reception).toBe('front');
    const before = world(dir);
    const stale = await runCli(['agents', 'add', 'Late', '-d', dir, '--base', rev, '--json']);
    expect(stale.code, describeRun(stale)).toBe(1);
    expect(expectJsonLine('error', stale.stdout)).toMatchObject({ error: { code: 'EDIT_CONFLICT', exitCode: 1 } });
    expect(world(dir)).toBe(before);
    const unknown = await runCli(['village', 'set', 'reception', 'nobody', '-d', dir, '--json']);
    expect(unknown.code).toBe(1);
    expect(expectJsonLine('error', unknown.stdout)).toMatchObject({ error: { code: 'AGENT_NOT_FOUND' } });
    expect(world(dir)).toBe(before);
  });

  it('refuses every change while another process holds the village (4, file untouched); templates list answers', { timeout: cliBudget(4) }, async () => {
    const dir = village();
    const before = world(dir);
    const holder = await holdVillage(dir);
    try {
      for (const args of [['agents', 'add', 'X'], ['agents', 'tie', 'front', 'writer'], ['templates', 'remove', 'demo'], ['village', 'set', 'reception', 'none']]) {
        const run = await runCli([...args, '-d', dir, '--json']);
        expect(run.code, describeRun(run)).toBe(4);
        expect(expectJsonLine('error', run.stdout)).toMatchObject({ error: { code: 'LOCK_HELD' } });
      }
      const listed = await runCli(['templates', 'list', '-d', dir, '--json']);
      expect(expectJsonLine('templates-list', listed.stdout)).toMatchObject({ held: true, templates: [{ id: 'demo', hasKey: null }] });
    } finally {
      await holder.release();
    }
    expect(world(dir)).toBe(before);
  });
});
