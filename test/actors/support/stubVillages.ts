/**
 * Shared set-up for actor tests that run the real agent worker against the loopback stub LLM: one stub per file,
 * villages closed after each test with a check that no worker thread is left alive.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { AgentSpec, World } from '../../../src/core/world/types.js';
import type { SupervisorOptions } from '../../../src/actors/supervisor.js';
import { startStubLlm, type StubLlm, type StubRequest } from '../../support/stubLlm.js';
import { template, village, world, type Village } from './villageFixture.js';

/** Tool results of a request (OpenAI wire), oldest first. */
export function toolResults(r: StubRequest): string[] {
  return ((r.body?.messages ?? []) as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
}

export interface StubVillages {
  stub(): StubLlm;
  /** A village on the real worker where every agent has its own template, model `m-<id>`, pointing at the stub. */
  make(agents: AgentSpec[], options?: Partial<SupervisorOptions>, overrides?: Partial<World>): Village;
}

/** Registers the hooks of one test file and returns its village factory. */
export function useStubVillages(): StubVillages {
  let stub: StubLlm | null = null;
  let open: Village[] = [];
  beforeAll(async () => {
    stub = await startStubLlm();
  });
  afterAll(async () => {
    await stub?.close();
  });
  afterEach(async () => {
    for (const v of open) {
      await v.close();
      expect(v.sup.liveWorkers()).toEqual([]);
    }
    open = [];
    stub?.reset();
  });
  const current = (): StubLlm => {
    if (stub === null) throw new Error('the stub LLM starts in beforeAll');
    return stub;
  };
  return {
    stub: current,
    make(agents, options = {}, overrides = {}) {
      const w = world(
        agents.map((a) => ({ ...a, modelTemplateId: `tpl-${a.id}` })),
        overrides,
      );
      w.modelTemplates = agents.map((a) => template({ id: `tpl-${a.id}`, model: `m-${a.id}`, baseUrl: current().baseUrl }));
      const v = village(w, { workerUrl: undefined, ...options });
      open.push(v);
      return v;
    },
  };
}
