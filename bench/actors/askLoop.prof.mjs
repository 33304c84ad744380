// Profiling aid (not a bench): runs only the ask round-trip loop of actors.bench.mjs, for `node --cpu-prof`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Supervisor } from '../../dist/actors/supervisor.js';
const tpl = { id: 'tpl', name: 'Echo', baseUrl: '', model: 'echo', contextLength: 8192, temperature: null, maxOutputTokens: 256, credential: 'not_required', provider: 'echo', useTools: true, effort: null, requestTimeoutSecs: 10, maxRetries: 1, inputPerMtok: null, outputPerMtok: null, cacheReadPerMtok: null, cacheWritePerMtok: null, cacheWrite1hPerMtok: null, pricingAsOf: null };
const agent = (id, c = []) => ({ id, name: id, modelTemplateId: 'tpl', ragSources: [], connectedAgents: c, order: 0, workDir: null, maxToolIterations: null, enabledTools: null, hearsRoomLog: false, allowHandoff: true, batchStart: false, roleId: null, groupId: null, hidden: false, planReview: false });
const dir = mkdtempSync(join(tmpdir(), 'ff-prof-'));
const sup = new Supervisor({ world: { agents: [agent('A', ['B']), agent('B')], groups: [], modelTemplates: [tpl], roles: [], topologyPositions: {}, tokenBudget: null, language: 'en', userName: null, reception: 'A', externalName: null, askTimeoutSecs: 60, maxHops: 8 }, workspaceDir: dir, workerUrl: new URL('./benchWorker.mjs', import.meta.url) });
await Promise.all([sup.startAgent('A'), sup.startAgent('B')]);
const out = await sup.askExternalOutcome('bench', `loop:${process.argv[2] ?? 4000}:B`);
const lat = JSON.parse(out.answer).sort((a, b) => a - b);
console.log('p50', lat[Math.floor(lat.length / 2)], 'us');
await sup.shutdown();
rmSync(dir, { recursive: true, force: true });
