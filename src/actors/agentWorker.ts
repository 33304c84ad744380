/**
 * The agent worker entry, loaded by Node as `dist/actors/agentWorker.js` (one per started agent).
 * Wires the real turn engine, backend factory, tool registry and budget view into the worker loop.
 * Lean by rule: nothing here may reach zod, pino, lmdb, the MCP SDK or oclif (workerImports test).
 */
import { parentPort } from 'node:worker_threads';
import { BudgetPool } from '../core/budget/budgetPool.js';
import { createBackend } from '../core/llm/factory.js';
import { MemorySecretStore } from '../core/secrets/secretStore.js';
import { createToolBox } from '../core/tools/builtins.js';
import { externalTool } from '../core/tools/externalTool.js';
import { runTurn } from '../core/turn/turnEngine.js';
import { serveAgent } from './workerLoop.js';

if (parentPort === null) throw new Error('agentWorker.js must run as a worker thread');

serveAgent(parentPort, {
  runTurn,
  makeBackend: (init) => {
    const secrets = new MemorySecretStore(init.apiKey === null ? {} : { [init.template.id]: init.apiKey });
    return createBackend(init.template, secrets, init.backendMode);
  },
  makeTools: (init, callExternal) =>
    createToolBox(
      {
      agentId: init.agent.id,
      workDir: init.agent.workDir,
      enabledTools: init.agent.enabledTools,
      language: init.language,
      workspaceDir: init.workspaceDir,
      },
      init.externalTools.map((spec) => externalTool(spec, callExternal)),
    ),
  budgetFromShared: (shared) => BudgetPool.fromShared(shared),
  now: () => Date.now(),
});
