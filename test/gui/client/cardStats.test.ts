import { describe, expect, it } from 'vitest';
import { cacheRate, formatRate, formatUptime, uptimeOf, type LiveStats } from '../../../src/gui/client/lib/cardStats.js';
import type { AgentStatus } from '../../../src/gui/client/lib/types.js';

const stats = (promptTokens: number, cachedTokens: number, uptimeSecs = 5): LiveStats => ({ uptimeSecs, promptTokens, cachedTokens });

describe('formatUptime', () => {
  it.each<[number | undefined, string]>([
    [undefined, '—'],
    [-1, '—'],
    [Number.NaN, '—'],
    [0, '0s'],
    [7, '7s'],
    [59, '59s'],
    [60, '1m 00s'],
    [125, '2m 05s'],
    [3723, '1h 02m 03s'],
    [90061, '25h 01m 01s'],
  ])('%s s → %s', (secs, text) => {
    expect(formatUptime(secs)).toBe(text);
  });
});

describe('uptimeOf', () => {
  it.each<[AgentStatus | undefined, LiveStats | undefined, number | undefined]>([
    ['running', stats(0, 0, 12), 12],
    ['starting', stats(0, 0, 1), 1],
    ['running', undefined, undefined],
    ['idle', stats(0, 0, 12), undefined],
    ['stopping', stats(0, 0, 12), undefined],
    ['failed', stats(0, 0, 12), undefined],
    [undefined, stats(0, 0, 12), undefined],
  ])('%s → %s', (status, s, expected) => {
    expect(uptimeOf(status, s)).toBe(expected);
  });
});

describe('cacheRate and formatRate', () => {
  it.each<[string, LiveStats | undefined, number | null, string]>([
    ['nothing reported yet', undefined, null, '—'],
    ['no prompt tokens yet', stats(0, 0), null, '—'],
    ['nothing cached', stats(1000, 0), 0, '0%'],
    ['1800 of 3200 cached', stats(3200, 1800), 0.5625, '56%'],
    ['all cached', stats(500, 500), 1, '100%'],
    ['a counter ahead of the other never passes 100%', stats(100, 150), 1, '100%'],
  ])('%s', (_name, s, rate, text) => {
    expect(cacheRate(s)).toBe(rate);
    expect(formatRate(cacheRate(s))).toBe(text);
  });
});

describe('the view keeps what the card rows read', () => {
  it('a stats tick replaces the servant\'s stats; a tool call becomes its last tool', async () => {
    const { applyEvent, emptyView } = await import('../../../src/gui/client/lib/view.js');
    const view = emptyView();
    applyEvent(view, { type: 'agentStatsUpdated', agentId: 'erin', uptimeSecs: 3, totalTokens: 10, promptTokens: 8, cachedTokens: 2 }, 1);
    applyEvent(view, { type: 'agentStatsUpdated', agentId: 'erin', uptimeSecs: 4, totalTokens: 30, promptTokens: 20, cachedTokens: 5 }, 2);
    expect(view.stats.erin).toEqual({ uptimeSecs: 4, promptTokens: 20, cachedTokens: 5 });
    applyEvent(view, { type: 'toolInvoked', agentId: 'erin', tool: 'remember', ok: true, reason: { kind: 'omitted' } }, 5);
    applyEvent(view, { type: 'toolInvoked', agentId: 'erin', tool: 'grep', ok: false, reason: { kind: 'omitted' } }, 6);
    expect(view.lastTool).toEqual({ erin: { tool: 'grep', ok: false, tsMs: 6 } });
    expect(view.stats.bob).toBeUndefined();
  });
});

describe('adoptActivity (the host\'s read after a reload)', () => {
  it('seeds what the page has not seen and never goes back behind its events', async () => {
    const { adoptActivity } = await import('../../../src/gui/client/lib/cardStats.js');
    const stats: Record<string, LiveStats> = { newer: { uptimeSecs: 9, promptTokens: 500, cachedTokens: 100 } };
    const lastTool = { newer: { tool: 'fd', ok: true, tsMs: 50 } };
    adoptActivity(stats, lastTool, {
      fresh: { promptTokens: 200, cachedTokens: 50, lastTool: { tool: 'remember', ok: false, atMs: 10 } },
      newer: { promptTokens: 400, cachedTokens: 0, lastTool: { tool: 'grep', ok: true, atMs: 40 } },
      idle: { promptTokens: 0, cachedTokens: 0, lastTool: null },
    });
    expect(stats).toEqual({ fresh: { promptTokens: 200, cachedTokens: 50 }, newer: { uptimeSecs: 9, promptTokens: 500, cachedTokens: 100 }, idle: { promptTokens: 0, cachedTokens: 0 } });
    expect(lastTool).toEqual({ fresh: { tool: 'remember', ok: false, tsMs: 10 }, newer: { tool: 'fd', ok: true, tsMs: 50 } });
    // A larger host count (events missed while the page was away) wins, keeping the uptime the page knows.
    adoptActivity(stats, lastTool, { newer: { promptTokens: 900, cachedTokens: 300, lastTool: { tool: 'grep', ok: true, atMs: 60 } } });
    expect(stats.newer).toEqual({ uptimeSecs: 9, promptTokens: 900, cachedTokens: 300 });
    expect(lastTool.newer).toEqual({ tool: 'grep', ok: true, tsMs: 60 });
  });
});
