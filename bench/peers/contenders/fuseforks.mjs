// This runtime: a village per lane (a village serves one external request at a time), each with a reception agent
// tied to a worker agent (its `ask_worker` tool), both on an open_ai_compat template pointed at the stub. Built dist/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVillage } from '../../../dist/index.js';
import { RECEPTION_INSTRUCTIONS, WORKER_INSTRUCTIONS } from './instructions.mjs';

const agent = (id, name, connectedAgents) => ({
  id, name, modelTemplateId: 'stub', ragSources: [], connectedAgents, order: 0, workDir: null, maxToolIterations: null,
  enabledTools: [], hearsRoomLog: false, allowHandoff: false, batchStart: true, roleId: null,
});

function writeVillage(dir, baseUrl) {
  const workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, 'agents', 'reception'), { recursive: true });
  mkdirSync(join(workspace, 'agents', 'worker'), { recursive: true });
  // The same instructions the peers get, as each agent's Construct (its system prompt's own part).
  writeFileSync(join(workspace, 'agents', 'reception', 'Construct.md'), RECEPTION_INSTRUCTIONS);
  writeFileSync(join(workspace, 'agents', 'worker', 'Construct.md'), WORKER_INSTRUCTIONS);
  const world = {
    agents: [agent('reception', 'Reception', ['worker']), agent('worker', 'Worker', [])],
    groups: [],
    modelTemplates: [{
      id: 'stub', name: 'Stub', provider: 'open_ai_compat', baseUrl, model: 'stub-model', contextLength: 128000,
      temperature: null, maxOutputTokens: 1024, credential: 'not_required', useTools: true, effort: null, stream: false,
      requestTimeoutSecs: 60, maxRetries: 0,
    }],
    roles: [],
    topologyPositions: {},
    tokenBudget: null,
    language: 'en',
    reception: 'reception',
  };
  writeFileSync(join(workspace, 'world.json'), JSON.stringify(world, null, 2));
}

export async function open(baseUrl, lanes) {
  const dirs = [];
  const hosts = [];
  for (let i = 0; i < lanes; i += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'ff-peers-'));
    dirs.push(dir);
    writeVillage(dir, baseUrl);
    const host = await openVillage({ dataDir: dir, stderrMode: 'none' });
    await host.startSet(['reception', 'worker']);
    hosts.push(host);
  }
  return {
    lanes: hosts.map((host) => async (text) => {
      const outcome = await host.askExternal('bench', text);
      if (outcome.state !== 'answered') throw new Error(`fuseforks: ${outcome.state}`);
      return outcome.answer;
    }),
    async close() {
      for (const host of hosts) await host.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
