import { describe, expect, it } from 'vitest';
import { foldActivity, type AgentActivity } from '../../../src/core/stats/agentActivity.js';
import type { CoreEvent } from '../../../src/core/events.js';

const stats = (agentId: string, promptTokens: number, cachedTokens: number): CoreEvent => ({ type: 'agentStatsUpdated', agentId, uptimeSecs: 1, totalTokens: promptTokens, promptTokens, cachedTokens });
const tool = (agentId: string, name: string, ok: boolean): CoreEvent => ({ type: 'toolInvoked', agentId, tool: name, ok, reason: { kind: 'omitted' } });

describe('foldActivity', () => {
  it.each<[string, CoreEvent[], Record<string, AgentActivity>]>([
    ['nothing happened', [], {}],
    ['a stats tick: counters, no tool yet', [stats('a', 100, 40)], { a: { promptTokens: 100, cachedTokens: 40, lastTool: null } }],
    ['a tool call before any tick: zero counters', [tool('a', 'grep', false)], { a: { promptTokens: 0, cachedTokens: 0, lastTool: { tool: 'grep', ok: false, atMs: 7 } } }],
    [
      'the newest of each, per agent',
      [stats('a', 100, 40), tool('a', 'remember', true), stats('a', 300, 40), tool('b', 'fd', true), tool('a', 'grep', false)],
      { a: { promptTokens: 300, cachedTokens: 40, lastTool: { tool: 'grep', ok: false, atMs: 7 } }, b: { promptTokens: 0, cachedTokens: 0, lastTool: { tool: 'fd', ok: true, atMs: 7 } } },
    ],
    ['other events change nothing', [{ type: 'agentTyping', agentId: 'a', active: true }, { type: 'topologyChanged' }], {}],
  ])('%s', (_name, events, expected) => {
    const activity: Record<string, AgentActivity> = {};
    for (const e of events) foldActivity(activity, e, 7);
    expect(activity).toEqual(expected);
  });
});
