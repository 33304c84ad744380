import { describe, expect, it } from 'vitest';
import { workerEntryFor } from '../../src/actors/workerUrl.js';

describe('workerEntryFor', () => {
  it.each([
    ['file:///repo/src/actors/workerUrl.ts', '/repo/dist/actors/agentWorker.bundle.cjs'],
    ['file:///repo/src/actors/supervisor.ts', '/repo/dist/actors/agentWorker.bundle.cjs'],
    ['file:///repo/dist/actors/workerUrl.js', '/repo/dist/actors/agentWorker.bundle.cjs'],
    ['file:///opt/app/node_modules/fuseforks/dist/actors/workerUrl.js', '/opt/app/node_modules/fuseforks/dist/actors/agentWorker.bundle.cjs'],
  ])('%s → %s', (from, to) => {
    expect(workerEntryFor(from).pathname).toBe(to);
  });

  it('names the scanning pool entry the same way', () => {
    expect(workerEntryFor('file:///repo/src/actors/scanPool.ts', 'scanWorker.bundle.js').pathname).toBe('/repo/dist/actors/scanWorker.bundle.js');
  });
});
