/**
 * Fuzzed village and shelf files (reliability suite, fast-check): world.json, schedules.json, mcp.json, run.json and
 * mcp_server.json are replaced by seeded arbitrary texts — random JSON of any shape, random strings, and valid files
 * with random cuts and insertions — and read by every reader a run uses: `check`'s whole preflight read, the
 * schedule store, the run policy, the MCP config and the door settings; then the refusing writers are tried (a
 * schedule added, the run policy updated). Held when nothing throws anything but a FuseforksError, every error and
 * every problem names its file, and no file that failed to parse was rewritten (a file with one bad schedule row
 * is still readable: its writes keep that row verbatim).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { isFuseforksError } from '../../src/core/errors.js';
import { gatherView } from '../../src/core/preflight/gatherView.js';
import { ScheduleStore } from '../../src/core/schedules/scheduleStore.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { readRunPolicy, updateRunPolicy } from '../../src/core/tools/runPolicyFile.js';
import { readDoorSettings } from '../../src/host/door/doorSettings.js';
import { readMcpConfig } from '../../src/host/mcp/mcpConfig.js';
import { SEED, Tally } from './support/tally.js';

const RUNS = 40;
const root = mkdtempSync(join(tmpdir(), 'ff-rel-fuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const VALID: Record<string, string> = {
  'world.json': JSON.stringify({
    agents: [{ id: 'desk', name: 'Desk', modelTemplateId: 'e', batchStart: true, enabledTools: ['run'], connectedAgents: [] }],
    modelTemplates: [{ id: 'e', name: 'E', model: 'echo', provider: 'echo', credential: 'not_required' }],
    reception: 'desk', language: 'en', groups: [], roles: [],
  }, null, 2),
  'schedules.json': JSON.stringify([{ id: '33333333-3333-4333-8333-333333333333', to: 'desk', message: 'hi', recurrence: { kind: 'interval', everyMinutes: 5 }, enabled: true, createdAtMs: 0, lastConsumedDueMs: null }], null, 2),
  'mcp.json': JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'srv'], env: { A: '1' }, enabled: true }, web: { url: 'http://127.0.0.1:9/mcp' } } }, null, 2),
  'run.json': JSON.stringify({ version: 1, allow: ['echo *'], deny: [], pending: [], timeoutSecs: 30 }, null, 2),
  'mcp_server.json': JSON.stringify({ enabled: false, port: 39641, token: null }, null, 2),
};
const KINDS = Object.keys(VALID);

/** Random JSON, random text, or a valid file with a random cut and insertion. */
const hostile = (valid: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    fc.tuple(fc.nat({ max: valid.length }), fc.nat({ max: 40 }), fc.string({ maxLength: 20 })).map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut)),
    fc.jsonValue({ maxDepth: 2 }).map((value) => {
      // A valid file with one of its keys given a value of a random type.
      const doc = JSON.parse(valid) as unknown;
      const target = Array.isArray(doc) ? (doc[0] as Record<string, unknown>) : (doc as Record<string, unknown>);
      const keys = Object.keys(target);
      target[keys[JSON.stringify(value).length % keys.length]!] = value;
      return JSON.stringify(doc);
    }),
  );

const sha = (file: string): string => {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'absent';
  }
};

/** A village with every file valid except `kind`, which holds `text`. */
function village(kind: string, text: string, n: number): { dataDir: string; file: string } {
  const dataDir = join(root, `${kind}-${n}`);
  mkdirSync(join(dataDir, 'workspace/agents/desk'), { recursive: true });
  const where: Record<string, string> = {
    'world.json': 'workspace/world.json',
    'schedules.json': 'workspace/schedules.json',
    'mcp.json': 'workspace/mcp.json',
    'run.json': 'workspace/agents/desk/run.json',
    'mcp_server.json': 'mcp_server.json',
  };
  for (const k of KINDS) writeFileSync(join(dataDir, where[k]!), k === kind ? text : VALID[k]!);
  return { dataDir, file: join(dataDir, where[kind]!) };
}

/** Runs every reader and refusing writer; returns what broke, or null. */
async function readAll(kind: string, dataDir: string, file: string): Promise<string | null> {
  const name = basename(file);
  const named = (text: string): boolean => text.includes(name);
  const before = sha(file);
  let parsedOk = true;
  const notNamed: string[] = [];
  const step = async (label: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
    } catch (error) {
      if (!isFuseforksError(error)) throw new Error(`${label} threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      if (!named(error.message)) notNamed.push(`${label}: ${error.code} ${error.message}`);
      if (basename(String(error.details?.['file'] ?? error.message)).includes(name) || named(error.message)) parsedOk = false;
    }
  };
  await step('check', async () => {
    const gathered = await gatherView({ dataDir, mode: 'serve', start: 'batch', secrets: 'keyring', bypassPlanReview: true, runApproval: 'auto-approve', store: new MemorySecretStore() });
    if (!gathered.ok) return;
    for (const p of gathered.problems) {
      if (!named(p.file) && basename(p.file) !== name) continue;
      // A bad row leaves the file readable (and a rewrite keeps that row verbatim); anything else is the whole file.
      if (!/^row \d+/.test(p.reason)) parsedOk = false;
      if (p.reason.trim() === '') notNamed.push(`check problem without a reason: ${p.file}`);
    }
  });
  const ws = join(dataDir, 'workspace');
  if (kind === 'schedules.json') {
    await step('schedule store', async () => {
      const store = await ScheduleStore.open({ file, agentExists: () => true });
      if (store.blocked !== null) {
        parsedOk = false;
        if (!named(store.blocked.file)) notNamed.push(`blocked without the file: ${store.blocked.file}`);
      }
      await store.add({ to: 'desk', message: 'more', recurrence: { kind: 'interval', everyMinutes: 7 } }, { nowMs: 0, agentExists: () => true }).catch((e: unknown) => {
        if (!isFuseforksError(e)) throw e;
      });
    });
  }
  if (kind === 'run.json') {
    await step('run policy', async () => {
      const read = readRunPolicy(ws, 'desk');
      if (read.state === 'broken') parsedOk = false;
      await updateRunPolicy(ws, 'desk', (p) => ({ ...p, allow: [...p.allow, 'ls *'] }));
    });
  }
  if (kind === 'mcp.json') await step('mcp config', async () => void (await readMcpConfig(file)));
  if (kind === 'mcp_server.json') {
    await step('door settings', async () => {
      const read = await readDoorSettings(file);
      if (!read.ok) {
        parsedOk = false;
        if (!named(read.error.message)) notNamed.push(`door: ${read.error.message}`);
      }
    });
  }
  if (notNamed.length > 0) return `errors without the file name: ${notNamed.join(' | ')}`;
  if (!parsedOk && sha(file) !== before) return 'a file that failed to parse was rewritten';
  return null;
}

describe('reliability: fuzzed village and shelf files', () => {
  it(`${RUNS} hostile texts per file kind: no crash, every error names its file, no unreadable file rewritten`, { timeout: 170_000 }, async () => {
    const tally = new Tally('fuzzed-files');
    let n = 0;
    for (const kind of KINDS) {
      await fc.assert(
        fc.asyncProperty(hostile(VALID[kind]!), async (text) => {
          const { dataDir, file } = village(kind, text, (n += 1));
          let broke: string | null;
          try {
            broke = await readAll(kind, dataDir, file);
          } catch (error) {
            broke = error instanceof Error ? error.message : String(error);
          }
          tally.check(`${kind} #${n} ${JSON.stringify(text).slice(0, 120)}`, broke);
          rmSync(dataDir, { recursive: true, force: true });
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    tally.finish(RUNS * KINDS.length);
  });
});
