import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../src/core/diag.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { villagePaths, type VillagePaths } from '../../src/core/village/paths.js';
import type { AgentSpec, World } from '../../src/core/world/types.js';
import { jevInit, noteJev, setJudgeEnabled } from '../../src/host/jevHost.js';

let dir: string;
let paths: VillagePaths;
const spec = (id: string) => ({ id }) as AgentSpec;
const world = { agents: [spec('a'), spec('b')] } as World;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-jevhost-'));
  paths = villagePaths(dir);
  mkdirSync(join(paths.workspace, 'agents', 'a'), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the jev: band line', () => {
  it('reports the real state, presence only', async () => {
    writeFileSync(paths.shelf.jev, JSON.stringify({ baseUrl: 'http://127.0.0.1:9/v1', model: 'small', pruning: { enabled: true, thresholdChars: 5000 } }));
    writeFileSync(join(paths.workspace, 'agents', 'a', 'judge.json'), '{"to": "b", "instructions": "x"}');
    const diag = new MemoryDiagSink();
    const secrets = new MemorySecretStore({ jev_api_token: 'tok-123' });
    expect(await noteJev(paths, world, secrets, diag)).toEqual({ active: true });
    expect(diag.notes).toEqual([
      { kind: 'jev', level: 'info', fields: { enabled: true, active: true, model: 'small', wire: 'open_ai_compat', compression: true, threshold: 5000, judges: 1, token: 'present', blocked: false } },
    ]);
    expect(JSON.stringify(diag.notes)).not.toContain('tok-123');
  });

  it('warns when a judge or compression is configured but Jev cannot run', async () => {
    writeFileSync(join(paths.workspace, 'agents', 'a', 'judge.json'), '{"to": "b"}');
    const diag = new MemoryDiagSink();
    expect(await noteJev(paths, world, new MemorySecretStore(), diag)).toEqual({ active: false });
    expect(diag.notes[0]).toMatchObject({ level: 'warn', fields: { active: false, judges: 1, token: 'missing', model: '-' } });
  });

  it('hands each starting worker the settings and the token; the store is asked only when Jev can call its model', async () => {
    writeFileSync(paths.shelf.jev, '{"model": "m", "baseUrl": "http://x/v1", "enabled": true}');
    expect(await jevInit(paths, new MemorySecretStore({ jev_api_token: ' t ' }))).toMatchObject({ settings: { enabled: true, model: 'm' }, token: 't' });
    expect((await jevInit(paths, new MemorySecretStore())).token).toBeNull();
    // Switched off, or no model named: the worker cannot use a token, and the (keyring) store is never read.
    const asked: string[] = [];
    const counting = new (class extends MemorySecretStore {
      override get(key: string): string | null {
        asked.push(key);
        return super.get(key);
      }
    })({ jev_api_token: 't' });
    writeFileSync(paths.shelf.jev, '{"model": "m", "baseUrl": "http://x/v1", "enabled": false}');
    expect(await jevInit(paths, counting)).toMatchObject({ settings: { enabled: false }, token: null });
    writeFileSync(paths.shelf.jev, '{"enabled": true, "wire": "echo"}');
    expect((await jevInit(paths, counting)).token).toBeNull();
    expect(asked).toEqual([]);
  });
});

describe('the judge switch', () => {
  it('writes enabled and keeps every other key; never overwrites a broken file', async () => {
    const file = join(paths.workspace, 'agents', 'a', 'judge.json');
    writeFileSync(file, '{"to": "judge", "x-custom": [1]}');
    await setJudgeEnabled(paths.workspace, 'a', false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ to: 'judge', 'x-custom': [1], enabled: false });
    await expect(setJudgeEnabled(paths.workspace, 'b', true)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await setJudgeEnabled(paths.workspace, 'b', true, 'a');
    expect(JSON.parse(readFileSync(join(paths.workspace, 'agents', 'b', 'judge.json'), 'utf8'))).toEqual({ to: 'a', enabled: true });
    writeFileSync(file, '{"to": ');
    await expect(setJudgeEnabled(paths.workspace, 'a', true)).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    expect(readFileSync(file, 'utf8')).toBe('{"to": ');
  });
});
