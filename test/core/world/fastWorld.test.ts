/**
 * The zod-free reader of world.json (fastWorld.ts) against the schema it stands in for: on every document it either
 * gives exactly the schema's output (same values, same key order) or steps aside (null) — never accepts what the
 * schema refuses. Table cases plus seeded mutations of a document that sets every key.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fastParseWorld } from '../../../src/core/world/fastWorld.js';
import { readWorldText } from '../../../src/core/world/readWorld.js';
import { worldFileSchema } from '../../../src/core/world/schema.js';

const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Record<string, unknown>;

/** Every key of every entry set, lenient values included. */
const FULL: Record<string, unknown> = {
  agents: [
    { id: 'a', name: 'A', modelTemplateId: 't', ragSources: ['docs'], connectedAgents: ['b'], order: 2, workDir: '/w', maxToolIterations: 255, enabledTools: ['grep'], hearsRoomLog: false, allowHandoff: false, batchStart: false, roleId: 'r', groupId: 'g', hidden: true, planReview: true, extra: 1 },
    { id: 'b', name: 'B', modelTemplateId: 't' },
  ],
  groups: [{ id: 'g', name: 'G', batchStart: false, order: 1, colour: 'x' }, { id: 'h', name: 'H' }],
  modelTemplates: [
    { id: 't', name: 'T', baseUrl: 'http://x', model: 'm', contextLength: 1000, temperature: 0.5, maxOutputTokens: 10, credential: 'keyring', provider: 'anthropic', useTools: false, effort: 'high', googleSearch: true, xaiWebSearch: true, xaiXSearch: true, openaiWebSearch: true, openaiReasoningPro: true, metaWebSearch: true, stream: false, requestTimeoutSecs: 5, maxRetries: 0, maxResponseBytes: 4096, inputPerMtok: 1.5, outputPerMtok: 0, cacheReadPerMtok: null, cacheWritePerMtok: 2, cacheWrite1hPerMtok: 3, pricingAsOf: '2026-01-01' },
    { id: 'u', name: 'U', model: 'm', credential: 'none', provider: 'some_future_wire', effort: 'ultra' },
    { id: 'v', name: 'V', model: 'm', provider: null },
  ],
  roles: [
    { id: 'r', name: 'R', description: 'd', color: 'teal', defaults: { construct: 'c', modelTemplateId: 't', enabledTools: null, maxToolIterations: 3 } },
    { id: 's', name: 'S', color: 'plaid' },
  ],
  topologyPositions: { a: { x: 1, y: -2.5, z: 3 }, b: { x: 0, y: 0 } },
  tokenBudget: 5000,
  language: 'fr',
  userName: 'Ann',
  reception: 'a',
  externalName: null,
  askTimeoutSecs: 30,
  maxHops: 3,
  unknownTopKey: { kept: 'by the store, not by the parse' },
};

const schema = (doc: unknown): { ok: true; value: string } | { ok: false } => {
  const r = worldFileSchema.safeParse(doc);
  return r.success ? { ok: true, value: JSON.stringify(r.data) } : { ok: false };
};

/** The invariant: null, or exactly what the schema gives (key order included). */
function agrees(doc: Record<string, unknown>): void {
  const fast = fastParseWorld(doc);
  if (fast === null) return;
  const slow = schema(doc);
  expect(slow.ok, `the fast reader accepted what the schema refuses: ${JSON.stringify(doc).slice(0, 300)}`).toBe(true);
  expect(JSON.stringify(fast)).toBe((slow as { value: string }).value);
}

describe('fast world.json reader', () => {
  it.each([
    ['an empty object', {}],
    ['every key set, lenient values included', FULL],
    ['the bundled example village', read('../../../examples/village/workspace/world.json')],
    ["the original app's world.json", read('../../fixtures/world/original-app.json')],
    ['the CLI fixture village', read('../../fixtures/cli/village-basic/workspace/world.json')],
  ])('reads %s exactly as the schema does', (_name, doc) => {
    expect(fastParseWorld(doc as Record<string, unknown>)).not.toBeNull();
    agrees(doc as Record<string, unknown>);
  });

  it.each([
    ['an agent id that is a number', { agents: [{ id: 1, name: 'A', modelTemplateId: 't' }] }],
    ['an agent without a name', { agents: [{ id: 'a', modelTemplateId: 't' }] }],
    ['a negative order', { agents: [{ id: 'a', name: 'A', modelTemplateId: 't', order: -1 }] }],
    ['maxToolIterations past 255', { agents: [{ id: 'a', name: 'A', modelTemplateId: 't', maxToolIterations: 256 }] }],
    ['a fractional contextLength', { modelTemplates: [{ id: 't', name: 'T', model: 'm', contextLength: 1.5 }] }],
    ['a null credential', { modelTemplates: [{ id: 't', name: 'T', model: 'm', credential: null }] }],
    ['a negative price', { modelTemplates: [{ id: 't', name: 'T', model: 'm', inputPerMtok: -1 }] }],
    ['askTimeoutSecs 0', { askTimeoutSecs: 0 }],
    ['agents as an object', { agents: { a: {} } }],
    ['a position without y', { topologyPositions: { a: { x: 1 } } }],
    ['a numeric language', { language: 7 }],
    ['role defaults as a string', { roles: [{ id: 'r', name: 'R', defaults: 'x' }] }],
  ])('steps aside for %s, which the schema refuses', (_name, doc) => {
    expect(schema(doc).ok).toBe(false);
    expect(fastParseWorld(doc as Record<string, unknown>)).toBeNull();
  });

  it('never disagrees with the schema over 3000 seeded mutations of a full document', () => {
    let seed = 20261203;
    const rand = (n: number): number => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return seed % n;
    };
    const odd: unknown[] = [null, -1, 0, 1, 1.5, 255, 256, 2 ** 60, 'x', '', 'none', 'ja', 'keyring', true, false, [], ['x'], [1], {}, { x: 1, y: 2 }, undefined];
    const paths: Array<Array<string | number>> = [];
    const walk = (node: unknown, path: Array<string | number>): void => {
      paths.push(path);
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
      else if (typeof node === 'object' && node !== null) for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
    };
    walk(FULL, []);
    let accepted = 0;
    for (let i = 0; i < 3000; i += 1) {
      const doc = structuredClone(FULL);
      for (let m = 0; m <= rand(2); m += 1) {
        const path = paths[rand(paths.length)] as Array<string | number>;
        if (path.length === 0) continue;
        const parent = path.slice(0, -1).reduce<unknown>((n, k) => (n as Record<string | number, unknown>)?.[k], doc) as Record<string | number, unknown> | undefined;
        if (typeof parent !== 'object' || parent === null) continue;
        const value = odd[rand(odd.length)];
        if (value === undefined) delete parent[path.at(-1) as string | number];
        else parent[path.at(-1) as string | number] = value;
      }
      if (fastParseWorld(doc) !== null) accepted += 1;
      agrees(doc);
    }
    // Guards the guard: the mutations must leave plenty of documents the fast reader takes.
    expect(accepted).toBeGreaterThan(300);
  });

  it('reads a broken file through the schema, which explains it (CONFIG_PARSE naming the key)', async () => {
    const result = await readWorldText(JSON.stringify({ agents: [{ id: 'writer', name: 'W', modelTemplateId: 't', order: 'first' }] }), '/v/workspace/world.json');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('agents[0] (id "writer").order');
    expect((await readWorldText('{"agents": [', 'world.json')).ok).toBe(false);
  });
});
