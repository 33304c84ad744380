/**
 * The design files on a real temp village: agent files and Ordinance (atomic, checked JSON, refused when the
 * disk changed since the revision the editor read: EDIT_CONFLICT), roles copying their Construct text, and the template connection test against
 * the loopback stub model (reply, the provider's 401 text, refused, a missing key) with the key never shown.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { villagePaths, type VillagePaths } from '../../src/core/village/paths.js';
import type { VillageCommands } from '../../src/host/villageCommands.js';
import { freePort } from '../support/freePort.js';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { codeOf, openCommands } from './support/openCommands.js';
import { baseOf } from '../../src/core/village/revision.js';

let dir: string;
let paths: VillagePaths;
let vc: VillageCommands;
let secrets: MemorySecretStore;
let stub: StubLlm;

beforeAll(async () => {
  stub = await startStubLlm();
});
afterAll(async () => stub.close());

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ff-files-'));
  paths = villagePaths(dir);
  mkdirSync(paths.workspace, { recursive: true });
  writeFileSync(
    paths.world,
    JSON.stringify({
      language: 'en',
      modelTemplates: [{ id: 't', name: 't', model: 'm', credential: 'not_required', provider: 'echo' }],
      roles: [{ id: 'critic', name: 'Critic', defaults: { construct: 'Criticise gently.' } }],
      agents: [],
    }),
  );
  secrets = new MemorySecretStore();
  vc = await openCommands(paths, secrets, { events: [], worlds: [], stopped: [], running: new Set() });
  await vc.createAgent({ name: 'Alice' });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = (rel: string) => readFileSync(join(paths.workspace, rel), 'utf8');

describe('agent files and the Ordinance', () => {
  it('reads "" for a missing file, writes atomically and answers the re-read file', async () => {
    const read = await vc.files.readAgentFile('alice', 'skill');
    expect(read).toMatchObject({ text: '', problem: null, file: join(paths.workspace, 'agents/alice/SKILL.md') });
    const saved = await vc.files.writeAgentFile('alice', 'skill', 'Do the thing.', baseOf(read));
    expect(saved.text).toBe('Do the thing.');
    expect(file('agents/alice/SKILL.md')).toBe('Do the thing.');
  });

  it('refuses a save over a file that changed since the editor opened it', async () => {
    const opened = await vc.files.writeAgentFile('alice', 'memory', '- one');
    writeFileSync(join(paths.workspace, 'agents/alice/Memory.md'), '- one\n- remembered meanwhile');
    const refused = vc.files.writeAgentFile('alice', 'memory', '- mine', baseOf(opened));
    await expect(refused).rejects.toMatchObject({
      code: 'EDIT_CONFLICT',
      agentId: 'alice',
      details: { doc: 'workspace/agents/alice/Memory.md', file: join(paths.workspace, 'agents/alice/Memory.md') },
    });
    expect(file('agents/alice/Memory.md')).toBe('- one\n- remembered meanwhile');
    // The current revision (what "reload" shows, or "overwrite" sends) is accepted.
    const current = await vc.files.readAgentFile('alice', 'memory');
    await vc.files.writeAgentFile('alice', 'memory', '- mine', baseOf(current));
    expect(file('agents/alice/Memory.md')).toBe('- mine');
  });

  it('refuses JSON the runtime could not load and leaves the file as it was', async () => {
    await vc.files.writeAgentFile('alice', 'mcp', '{"mcpServers": {"a": {"command": "node"}}}');
    expect(await codeOf(vc.files.writeAgentFile('alice', 'mcp', '{"mcpServers": {"a": {"url": "ftp://x"}}}'))).toBe('CONFIG_PARSE');
    expect(await codeOf(vc.files.writeAgentFile('alice', 'run', '{"allow": "ls"}'))).toBe('CONFIG_PARSE');
    expect(file('agents/alice/mcp.json')).toBe('{"mcpServers": {"a": {"command": "node"}}}');
    expect(await codeOf(vc.files.readAgentFile('alice', 'icon'))).toBe('INVALID_REQUEST');
    expect(await codeOf(vc.files.readAgentFile('nobody', 'skill'))).toBe('AGENT_NOT_FOUND');
  });

  it('a broken run.json reads with its problem; a parsing text fixes it', async () => {
    mkdirSync(join(paths.workspace, 'agents/alice'), { recursive: true });
    writeFileSync(join(paths.workspace, 'agents/alice/run.json'), '{ oops');
    expect((await vc.files.readAgentFile('alice', 'run')).problem).toMatch(/not valid JSON/);
    await vc.files.writeAgentFile('alice', 'run', '{"allow": ["ls"]}');
    expect(vc.approvals.readPolicy('alice')).toMatchObject({ state: 'ok', allow: ['ls'] });
  });

  it('the Ordinance is read and written, guarded the same way', async () => {
    const empty = await vc.files.readOrdinance();
    expect(empty).toMatchObject({ file: paths.ordinance, text: '' });
    await vc.files.writeOrdinance('Be kind.', baseOf(empty));
    expect(file('Ordinance.md')).toBe('Be kind.');
    expect(await codeOf(vc.files.writeOrdinance('x', baseOf(empty)))).toBe('EDIT_CONFLICT');
    expect(file('Ordinance.md')).toBe('Be kind.');
  });
});

describe('roles copy their Construct text', () => {
  it('into a servant created with the role, and into one the role is applied to', async () => {
    await vc.createAgent({ name: 'Bob', roleId: 'critic' });
    expect(file('agents/bob/Construct.md')).toBe('Criticise gently.');
    const state = await vc.applyRole('alice', 'critic');
    expect(state.world.agents.find((a) => a.id === 'alice')?.roleId).toBe('critic');
    expect(file('agents/alice/Construct.md')).toBe('Criticise gently.');
    // Removing the role keeps the text (it is the servant's file now).
    await vc.applyRole('alice', null);
    expect(file('agents/alice/Construct.md')).toBe('Criticise gently.');
  });
});

describe('template connection test (one request through the real backend)', () => {
  const template = (over: Record<string, unknown> = {}) => ({ id: 'stubby', name: 'Stub', baseUrl: stub.baseUrl, model: 'stub-model', credential: 'keyring', provider: 'open_ai_compat', ...over });

  it('answers the model\'s reply, sending the stored key', async () => {
    secrets.set('stubby', 'sk-test-secret-123');
    stub.enqueue(reply.text('pong'));
    const result = await vc.testConnection(template());
    expect(result).toMatchObject({ ok: true, reply: 'pong', truncated: false });
    expect(stub.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test-secret-123');
  });

  it('answers the provider\'s own 401 text, never the key', async () => {
    secrets.set('stubby', 'sk-test-secret-123');
    stub.enqueue(reply.error(401, { error: { message: 'Incorrect API key provided: sk-test-secret-123' } }));
    const result = await vc.testConnection(template());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('LLM_API');
    expect(result.message).toContain('HTTP 401');
    expect(result.message).toContain('Incorrect API key provided');
    expect(JSON.stringify(result)).not.toContain('sk-test-secret-123');
  });

  it('answers a refused connection and a missing key with their reasons', async () => {
    const port = await freePort();
    const refused = await vc.testConnection(template({ credential: 'not_required', baseUrl: `http://127.0.0.1:${port}/v1` }));
    expect(refused).toMatchObject({ ok: false, code: 'LLM_HTTP', message: expect.stringContaining('ECONNREFUSED') });
    const noKey = await vc.testConnection(template());
    expect(noKey).toMatchObject({ ok: false, code: 'LLM_CONFIG', message: expect.stringContaining('stubby') });
  });

  it('a template that does not parse is named, not sent', async () => {
    const count = stub.count;
    expect(await vc.testConnection({ id: 'x' })).toMatchObject({ ok: false, code: 'INVALID_REQUEST' });
    expect(stub.count).toBe(count);
  });
});
