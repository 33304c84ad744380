/**
 * What `ask` loads on its way to an answer (cold start, issue 16): following the imports that load with its fast
 * path and its boot — not the ones deferred to a rarer path — neither zod (world.json is read by the zod-free
 * reader, fastWorld.ts; the schema loads only to explain a broken file or for an edit), nor the MCP SDK (loaded when
 * an MCP server or the door is configured), nor oclif (the fast path reads its arguments itself, askArgv.ts) is reached.
 */
import { describe, expect, it } from 'vitest';
import { reach } from '../support/importGraph.js';

/** The fast path (`bin/run.js` → askFromArgv) and what it always loads: the command body, runAsk, the host boot. */
const ASK_PATH = ['src/cli/ask/askFromArgv.ts', 'src/cli/ask/askCommand.ts', 'src/cli/ask/runAsk.ts', 'src/cli/headless/openHost.ts', 'src/host/buildHost.ts', 'src/host/hostPaths.ts'];
const NOT_ON_ASK = ['zod', '@modelcontextprotocol/sdk', '@oclif/core'];

describe('the ask path', () => {
  it('reaches neither zod, the MCP SDK nor oclif through the imports that load with it', () => {
    const { packages, missing } = reach(ASK_PATH, { dynamic: false });
    expect(missing).toEqual([]);
    const offenders = NOT_ON_ASK.filter((p) => packages.has(p)).map((p) => `${p} via ${packages.get(p)?.join(' → ')}`);
    expect(offenders).toEqual([]);
    // Guards the guard: the walk does reach what ask needs.
    expect([...packages.keys()]).toEqual(expect.arrayContaining(['lmdb', 'msgpackr']));
  });
});
