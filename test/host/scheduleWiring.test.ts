/**
 * The in-flight rule of the schedule wiring (reference ops.md §2.3): a target fired by a schedule stays busy until
 * its typing ends or it leaves `running`; other events and other agents change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { nextInFlight } from '../../src/host/scheduleWiring.js';

describe('nextInFlight', () => {
  const cases: Array<[string, string[], CoreEvent, string[]]> = [
    ['typing ended frees the agent', ['a', 'b'], { type: 'agentTyping', agentId: 'a', active: false }, ['b']],
    ['typing started keeps it', ['a'], { type: 'agentTyping', agentId: 'a', active: true }, ['a']],
    ['stopping frees it', ['a'], { type: 'agentStatusChanged', agentId: 'a', status: 'stopping' }, []],
    ['idle frees it', ['a'], { type: 'agentStatusChanged', agentId: 'a', status: 'idle' }, []],
    ['failed frees it', ['a'], { type: 'agentStatusChanged', agentId: 'a', status: 'failed' }, []],
    ['running keeps it', ['a'], { type: 'agentStatusChanged', agentId: 'a', status: 'running' }, ['a']],
    ['another agent changes nothing', ['a'], { type: 'agentTyping', agentId: 'b', active: false }, ['a']],
  ];
  it.each(cases)('%s', (_label, before, event, after) => {
    expect([...nextInFlight(new Set(before), event)].sort()).toEqual(after);
  });

  it('returns the same set when nothing changes (no copy per event)', () => {
    const set = new Set(['a']);
    expect(nextInFlight(set, { type: 'agentTyping', agentId: 'b', active: false })).toBe(set);
  });
});
