/** Builds small worlds and supervisors for the actor tests (scripted fixture worker by default). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import type { CoreEvent } from '../../../src/core/events.js';
import type { AgentSpec, ModelTemplate, World } from '../../../src/core/world/types.js';
import { MemoryRecorder } from '../../../src/actors/recorder.js';
import { Supervisor, type SupervisorOptions } from '../../../src/actors/supervisor.js';

export const SCRIPTED_WORKER = new URL('../fixtures/scriptedWorker.mjs', import.meta.url);

export function template(overrides: Partial<ModelTemplate> = {}): ModelTemplate {
  return {
    id: 'tpl', name: 'Template', baseUrl: 'http://127.0.0.1:9', model: 'stub-model', contextLength: 8192,
    temperature: null, maxOutputTokens: 256, credential: 'not_required', provider: 'open_ai_compat',
    useTools: true, effort: null, requestTimeoutSecs: 10, maxRetries: 1, inputPerMtok: null, outputPerMtok: null,
    cacheReadPerMtok: null, cacheWritePerMtok: null, cacheWrite1hPerMtok: null, pricingAsOf: null, googleSearch: false, xaiWebSearch: false, xaiXSearch: false, openaiWebSearch: false, openaiReasoningPro: false, metaWebSearch: false, stream: true,
    ...overrides,
  };
}

export function agent(id: string, connectedAgents: string[] = [], overrides: Partial<AgentSpec> = {}): AgentSpec {
  return {
    id, name: `Agent ${id}`, modelTemplateId: 'tpl', ragSources: [], connectedAgents, order: 0, workDir: null,
    maxToolIterations: null, enabledTools: null, hearsRoomLog: false, allowHandoff: true, batchStart: false,
    roleId: null, groupId: null, hidden: false, planReview: false, ...overrides,
  };
}

export function world(agents: AgentSpec[], overrides: Partial<World> = {}): World {
  return {
    agents, groups: [], modelTemplates: [template()], roles: [], topologyPositions: {}, tokenBudget: null,
    language: 'en', userName: null, reception: agents[0]?.id ?? null, externalName: null, askTimeoutSecs: 20,
    maxHops: 8, ...overrides,
  };
}

export interface Village {
  sup: Supervisor;
  diag: MemoryDiagSink;
  recorder: MemoryRecorder;
  events: CoreEvent[];
  dir: string;
  close(): Promise<void>;
}

/** A supervisor over `w` with a memory diag, a memory recorder and every event collected. */
export function village(w: World, options: Partial<SupervisorOptions> = {}): Village {
  const dir = mkdtempSync(join(tmpdir(), 'ff-actors-'));
  const diag = new MemoryDiagSink();
  const recorder = new MemoryRecorder();
  const sup = new Supervisor({ world: w, workspaceDir: dir, diag, recorder, workerUrl: SCRIPTED_WORKER, ...options });
  const events: CoreEvent[] = [];
  sup.bus.onAny((e) => events.push(e));
  return {
    sup, diag, recorder, events, dir,
    async close() {
      await sup.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `predicate` holds, polling the event loop (no timing assertion: only a hang guard). */
export async function until(predicate: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
