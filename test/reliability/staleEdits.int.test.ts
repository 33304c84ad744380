/**
 * Stale edits (reliability suite): two clients of a real `fuseforks-cli gui` (tabs, or a tab and a script) read and
 * write four documents in a seeded order — the village settings (world.json), a servant's run policy, the shared
 * mcp.json and the Ordinance — each write sent with the revision that client last read (`If-Match`). Held when a
 * write made from the current revision is applied and one made from an older revision is refused with EDIT_CONFLICT
 * and leaves the file byte for byte as it was, and at the end every file holds the last write that was applied:
 * nothing a client saved was silently undone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { request, requireGuiBuild, startGui, waitBoot, type GuiChild } from '../gui/support/guiChild.js';
import { pick, seeded, Tally } from './support/tally.js';

/** Writes made (each read between them is a step, not a try). */
const TRIES = 80;
let dir: string;
let gui: GuiChild;

beforeAll(async () => {
  requireGuiBuild();
  dir = mkdtempSync(join(tmpdir(), 'ff-rel-stale-'));
  gui = await startGui(dir);
  await waitBoot(gui.port, gui.token);
  const admin = { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` };
  const template = { id: 'echo', name: 'Echo', provider: 'echo', model: 'echo', baseUrl: '', credential: 'not_required' };
  for (const [path, body] of [['/api/templates', { template }], ['/api/agents', { name: 'Ann' }]] as const) {
    const made = await request(gui.port, path === '/api/templates' ? 'PUT' : 'POST', path, { headers: admin, body });
    if (made.status !== 200) throw new Error(`${path}: ${JSON.stringify(made.body)}`);
  }
}, 120_000);

afterAll(async () => {
  await gui?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One document: where it is read and written, its name in `revisions`, and how a value is written and read back. */
interface Doc {
  name: string;
  read: string;
  write: { method: string; path: string; body: (value: string) => unknown };
  file: string;
  onDisk: (text: string) => string | null;
}

const DOCS: Doc[] = [
  {
    name: 'workspace/world.json',
    read: '/api/state',
    write: { method: 'PUT', path: '/api/settings', body: (v) => ({ userName: v }) },
    file: 'workspace/world.json',
    onDisk: (t) => (JSON.parse(t) as { userName?: string }).userName ?? null,
  },
  {
    name: 'workspace/agents/ann/run.json#policy',
    read: '/api/agents/ann/run-policy',
    write: { method: 'PUT', path: '/api/agents/ann/run-policy', body: (v) => ({ allow: [`echo ${v}`], deny: [], timeoutSecs: 60 }) },
    file: 'workspace/agents/ann/run.json',
    onDisk: (t) => ((JSON.parse(t) as { allow: string[] }).allow[0] ?? '').replace(/^echo /, ''),
  },
  {
    name: 'workspace/mcp.json',
    read: '/api/mcp',
    write: { method: 'PUT', path: '/api/mcp', body: (v) => ({ text: JSON.stringify({ mcpServers: {}, note: v }) }) },
    file: 'workspace/mcp.json',
    onDisk: (t) => (JSON.parse(t) as { note?: string }).note ?? null,
  },
  {
    name: 'workspace/Ordinance.md',
    read: '/api/ordinance',
    write: { method: 'PUT', path: '/api/ordinance', body: (v) => ({ text: v }) },
    file: 'workspace/Ordinance.md',
    onDisk: (t) => t,
  },
];

const disk = (rel: string): string | null => {
  try {
    return readFileSync(join(dir, rel), 'utf8');
  } catch {
    return null;
  }
};

describe('reliability: stale edits', () => {
  it(`${TRIES} seeded writes (reads between) by two clients: stale writes refused, current ones applied, nothing undone`, { timeout: 120_000 }, async () => {
    const tally = new Tally('stale-edits');
    const next = seeded(33);
    const headers = { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` };
    /** client → document → the revision it last read. */
    const seen: Array<Map<string, string>> = [new Map(), new Map()];
    /** document → the revision on the server now, and the last value applied. */
    const current = new Map<string, string>();
    const applied = new Map<string, string>();
    const read = async (client: number, doc: Doc): Promise<void> => {
      const res = await request(gui.port, 'GET', doc.read, { headers });
      const rev = (res.body as { revisions: Record<string, string> }).revisions[doc.name]!;
      seen[client]!.set(doc.name, rev);
      current.set(doc.name, rev);
    };
    for (const doc of DOCS) for (const client of [0, 1]) await read(client, doc);

    const kinds = { stale: 0, current: 0 };
    // Reads are not tries: the loop runs until TRIES writes were made.
    for (let i = 0; kinds.stale + kinds.current < TRIES; i += 1) {
      const client = pick(next, 2);
      const doc = DOCS[pick(next, DOCS.length)]!;
      if (pick(next, 3) === 0) {
        await read(client, doc);
        continue;
      }
      const base = seen[client]!.get(doc.name)!;
      const stale = base !== current.get(doc.name);
      kinds[stale ? 'stale' : 'current'] += 1;
      const value = `v${i}-c${client}`;
      const before = disk(doc.file);
      const res = await request(gui.port, doc.write.method, doc.write.path, { headers: { ...headers, 'if-match': `"${base}"` }, body: doc.write.body(value) });
      const label = `try ${i} (client ${client} writes ${doc.name} from a ${stale ? 'stale' : 'current'} revision)`;
      if (stale) {
        const code = (res.body as { code?: string }).code;
        tally.check(label, res.status === 409 && code === 'EDIT_CONFLICT' && disk(doc.file) === before ? null : `status ${res.status} ${code}, file ${disk(doc.file) === before ? 'unchanged' : 'CHANGED'}`);
        continue;
      }
      const text = disk(doc.file);
      const ok = res.status === 200 && text !== null && doc.onDisk(text) === value;
      tally.check(label, ok ? null : `status ${res.status}, on disk ${text === null ? 'nothing' : doc.onDisk(text)}`);
      if (res.status === 200) {
        const rev = (res.body as { revisions: Record<string, string> }).revisions[doc.name]!;
        seen[client]!.set(doc.name, rev);
        current.set(doc.name, rev);
        applied.set(doc.name, value);
      }
    }
    tally.check('both kinds were tried', kinds.stale > 10 && kinds.current > 10 ? null : JSON.stringify(kinds));
    for (const doc of DOCS) {
      const want = applied.get(doc.name);
      if (want === undefined) continue;
      const text = disk(doc.file);
      tally.check(`at the end ${doc.name} holds the last applied write`, text !== null && doc.onDisk(text) === want ? null : `holds ${text === null ? 'nothing' : doc.onDisk(text)}, wanted ${want}`);
    }
    tally.finish(TRIES);
  });
});
