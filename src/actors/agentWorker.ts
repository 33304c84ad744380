/**
 * The agent worker entry (one per started agent), loaded by Node as the build's bundle `dist/actors/agentWorker.bundle.cjs`.
 * Wires the real turn engine, backend factory, tool registry and budget view into the worker loop.
 * Lean by rule: nothing here may reach zod, pino, lmdb, the MCP SDK or oclif (workerImports test).
 *
 * The engine, the LLM backends and the tools load on the first delivery, not at spawn: most agents started by
 * `--start batch` never get a message in a cron `ask`, and each eager load cost ~0.25 s of CPU per worker. They sit
 * behind one module (agentEngine.ts), which the build bundles into one lazily loaded file.
 */
import { join } from 'node:path';
import { parentPort, threadId } from 'node:worker_threads';
import { bootMark, setBootTraceThread } from '../core/bootTrace.js';
import { codeCachedRequire, type CodeCacheUse } from './codeCachedRequire.js';
import { serveAgent, type WorkerEnv } from './workerLoop.js';

if (parentPort === null) throw new Error('agentWorker.js must run as a worker thread');
setBootTraceThread(`worker${threadId}`);
bootMark('worker loaded');

type Heavy = typeof import('./agentEngine.js');

let heavy: Heavy | null = null;
let loading: Promise<void> | null = null;

/**
 * The engine. Running as the build's CommonJS bundle (scripts/bundleWorkers.mjs), it is a bundle of its own beside
 * this one, compiled from V8's code cache when the cache fits this Node (codeCachedRequire.ts); anywhere else, the
 * module itself.
 */
async function loadEngine(): Promise<{ engine: Heavy; cache: CodeCacheUse }> {
  if (typeof __dirname === 'string') {
    const { exports, cache } = codeCachedRequire(join(__dirname, 'agentEngine.bundle.cjs'));
    return { engine: exports as Heavy, cache };
  }
  return { engine: await import('./agentEngine.js'), cache: 'none' };
}

function loaded(): Heavy {
  if (heavy === null) throw new Error('agent worker used before prepare()');
  return heavy;
}

const env: WorkerEnv = {
  prepare: () =>
    (loading ??= (async () => {
      const { engine, cache } = await loadEngine();
      heavy = engine;
      bootMark('engine loaded', `code cache ${cache}`);
    })()),
  runTurn: (input, deps) => loaded().engine.runTurn(input, deps),
  makeBackend: (init) => {
    const { factory, secrets } = loaded();
    const store = new secrets.MemorySecretStore(init.apiKey === null ? {} : { [init.template.id]: init.apiKey });
    return factory.createBackend(init.template, store, init.backendMode);
  },
  makeJev: (init) => (init.jev === null ? undefined : loaded().jev.resolveJevDeps(init.jev.settings, init.jev.token)),
  makeTools: (init, callExternal) => {
    const { builtins, external } = loaded();
    return builtins.createToolBox(
      {
        agentId: init.agent.id,
        workDir: init.agent.workDir,
        enabledTools: init.agent.enabledTools,
        language: init.language,
        workspaceDir: init.workspaceDir,
        ragSources: init.agent.ragSources,
      },
      init.externalTools.map((spec) => external.externalTool(spec, callExternal)),
    );
  },
  budgetFromShared: (shared) => loaded().budget.BudgetPool.fromShared(shared),
  now: () => Date.now(),
};

serveAgent(parentPort, env);
