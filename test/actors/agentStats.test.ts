import { describe, expect, it } from 'vitest';
import { AgentStats } from '../../src/actors/agentStats.js';

const spend = (prompt: number, cached: number, completion: number) => ({ prompt, cached, cacheWrite: 0, cacheWrite1h: 0, completion, reasoning: 0, effectiveMilli: 0 });

describe('agent stats', () => {
  it('settles every turn into the counters (total = prompt + completion)', () => {
    const stats = new AgentStats();
    stats.settle('a', spend(100, 40, 10));
    stats.settle('a', spend(50, 0, 5));
    expect(stats.of('a')).toEqual({ totalTokens: 165, promptTokens: 150, cachedTokens: 40 });
    expect(stats.of('never')).toEqual({ totalTokens: 0, promptTokens: 0, cachedTokens: 0 });
  });

  it.each([
    ['running', 1],
    ['starting', 1],
    ['idle', 0],
    ['stopping', 0],
    ['failed', 0],
  ] as const)('a tick reports %s agents: %i event(s), with whole uptime seconds', (status, count) => {
    const stats = new AgentStats();
    stats.settle('a', spend(10, 0, 2));
    const events = stats.tick([{ agentId: 'a', status, startedAtMs: 1_000 }], 3_999);
    expect(events).toHaveLength(count);
    if (count === 1) {
      expect(events[0]).toEqual({ type: 'agentStatsUpdated', agentId: 'a', uptimeSecs: 2, totalTokens: 12, promptTokens: 10, cachedTokens: 0 });
    }
  });
});
