/**
 * Command approvals on a real temp village: pending requests read from each agent's run.json, a person's
 * decisions written back atomically with unknown keys kept, and a broken run.json reported and never touched.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { decide, parseRunPolicy } from '../../src/core/tools/runPolicy.js';
import { villagePaths, type VillagePaths } from '../../src/core/village/paths.js';
import type { World } from '../../src/core/world/types.js';
import type { VillageCommands } from '../../src/host/villageCommands.js';
import { codeOf, openCommands } from './support/openCommands.js';

let dir: string;
let paths: VillagePaths;
let vc: VillageCommands;

const runJson = (id: string) => join(paths.workspace, 'agents', id, 'run.json');
function writeRun(id: string, body: unknown): void {
  mkdirSync(join(runJson(id), '..'), { recursive: true });
  writeFileSync(runJson(id), typeof body === 'string' ? body : JSON.stringify(body, null, 2));
}
const readRun = (id: string) => JSON.parse(readFileSync(runJson(id), 'utf8')) as Record<string, unknown>;
const pending = (command: string, args: string[], at: number, extra: Record<string, unknown> = {}) => ({ command, args, firstRequestedAtMs: at, count: 1, ...extra });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ff-approvals-'));
  paths = villagePaths(dir);
  mkdirSync(paths.workspace, { recursive: true });
  writeFileSync(paths.world, JSON.stringify({ language: 'en', modelTemplates: [{ id: 't', name: 't', model: 'm', credential: 'not_required' }], agents: [] }));
  const worlds: World[] = [];
  const events: CoreEvent[] = [];
  vc = await openCommands(paths, new MemorySecretStore(), { events, worlds, stopped: [], running: new Set() });
  await vc.createAgent({ name: 'Alice' });
  await vc.createAgent({ name: 'Bob' });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('command approvals through the village commands', () => {
  it('lists every agent\'s pending requests with where and why, in the state as well', () => {
    writeRun('alice', { pending: [pending('make', ['all'], 5, { cwd: '/w', reason: 'build it' })] });
    writeRun('bob', { pending: [pending('curl', ['x'], 3)] });
    const list = vc.approvals.list();
    expect(list.broken).toEqual([]);
    expect(list.requests.map((r) => [r.agentId, r.line, r.cwd ?? null, r.reason ?? null])).toEqual([
      ['alice', 'make all', '/w', 'build it'],
      ['bob', 'curl x', null, null],
    ]);
    expect(vc.state().commandRequests.requests).toHaveLength(2);
  });

  it.each([
    ['once', 'allowedOnce'],
    ['always', 'allowed'],
    ['prefix', 'allowed'],
    ['reject', 'denied'],
  ] as const)('%s is written to that agent\'s run.json, keeping unknown keys', async (decision, outcome) => {
    writeRun('alice', { version: 1, pending: [pending('make', ['all'], 5)], comment: 'hand-written', future: { x: 1 } });
    expect(await vc.approvals.decide('alice', { command: 'make', args: ['all'] }, decision)).toBe('applied');
    expect(vc.state().commandRequests.requests).toEqual([]);
    const file = readRun('alice');
    expect(file).toMatchObject({ comment: 'hand-written', future: { x: 1 }, pending: [] });
    expect(decide(parseRunPolicy(JSON.stringify(file)).policy, 'make', ['all'])).toBe(outcome);
  });

  it('a request decided elsewhere is notFound and nothing changes', async () => {
    writeRun('alice', { pending: [pending('make', ['all'], 5)] });
    const before = readFileSync(runJson('alice'), 'utf8');
    expect(await vc.approvals.decide('alice', { command: 'make', args: ['other'] }, 'always')).toBe('notFound');
    expect(JSON.parse(readFileSync(runJson('alice'), 'utf8'))).toEqual(JSON.parse(before));
  });

  it('a broken run.json is listed as broken and stays byte-identical whatever is pressed', async () => {
    const broken = '{ "allow": ["ls", }\n';
    writeRun('alice', broken);
    writeRun('bob', { pending: [pending('curl', ['x'], 3)] });
    const list = vc.approvals.list();
    expect(list.broken).toEqual([expect.objectContaining({ agentId: 'alice', file: runJson('alice'), reason: expect.stringMatching(/not valid JSON/) })]);
    expect(list.requests.map((r) => r.agentId)).toEqual(['bob']);
    expect(await codeOf(vc.approvals.decide('alice', { command: 'ls', args: [] }, 'always'))).toBe('CONFIG_PARSE');
    expect(await codeOf(vc.approvals.writePolicy('alice', { allow: ['ls'], deny: [], timeoutSecs: 60 }))).toBe('CONFIG_PARSE');
    expect(vc.approvals.readPolicy('alice')).toMatchObject({ state: 'broken', broken: expect.stringMatching(/not valid JSON/) });
    // Saving elsewhere (another agent's file, the world) never touches it.
    await vc.approvals.decide('bob', { command: 'curl', args: ['x'] }, 'reject');
    await vc.createAgent({ name: 'Carol' });
    expect(readFileSync(runJson('alice'), 'utf8')).toBe(broken);
  });

  it('the allowlist editor saves the lists and timeout, keeps pending and unknown keys, refuses bad patterns', async () => {
    writeRun('bob', { pending: [pending('curl', ['x'], 3)], extra: 'kept' });
    const view = await vc.approvals.writePolicy('bob', { allow: [' git   status ', 'npm test *', 'git status'], deny: ['rm *'], timeoutSecs: 99999 });
    expect(view).toMatchObject({ state: 'ok', allow: ['git status', 'npm test *'], deny: ['rm *'], timeoutSecs: 3600 });
    expect(readRun('bob')).toMatchObject({ extra: 'kept', pending: [{ command: 'curl' }], allow: ['git status', 'npm test *'] });
    expect(await codeOf(vc.approvals.writePolicy('bob', { allow: ['/bin/rm *'], deny: [], timeoutSecs: 60 }))).toBe('INVALID_REQUEST');
    expect(await codeOf(vc.approvals.writePolicy('bob', { allow: ['*'], deny: [], timeoutSecs: 60 }))).toBe('INVALID_REQUEST');
    expect(await codeOf(vc.approvals.writePolicy('nobody', { allow: [], deny: [], timeoutSecs: 60 }))).toBe('AGENT_NOT_FOUND');
    expect(await codeOf(vc.approvals.decide('bob', { command: 'curl', args: ['x'] }, 'sometimes' as never))).toBe('INVALID_REQUEST');
  });

  it('a missing run.json reads as nothing allowed and the editor creates it', async () => {
    expect(vc.approvals.readPolicy('alice')).toMatchObject({ state: 'missing', allow: [], timeoutSecs: 60 });
    await vc.approvals.writePolicy('alice', { allow: ['ls'], deny: [], timeoutSecs: 30 });
    expect(readRun('alice')).toMatchObject({ version: 1, allow: ['ls'], timeoutSecs: 30 });
  });
});
