import { describe, expect, it } from 'vitest';
import { ChainLedger, type ChainSpend } from '../../src/actors/chainLedger.js';
import type { CallRecord } from '../../src/core/sessions/records.js';

const call = (agentId: string, purpose: CallRecord['purpose'] = 'turn'): CallRecord => ({
  agentId, templateId: 't', model: 'm', backend: 'echo', purpose, tsMs: 1, latencyMs: 1, outcome: { kind: 'ok' },
  prompt: 1, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 1, reasoning: 0, estimated: false,
});

describe('ChainLedger', () => {
  it('ignores untracked chains and summary calls; takes once', () => {
    const ledger = new ChainLedger();
    ledger.add('nobody', call('a'));
    ledger.open('r', 'a');
    ledger.add('r', call('a'));
    ledger.add('r', call('b'));
    ledger.add('r', call('b', 'summarize'));
    ledger.add(undefined, call('c'));
    expect(ledger.take('r')).toEqual({ participants: ['a', 'b'], calls: [call('a'), call('b')] });
    expect(ledger.take('r')).toBeNull();
    expect(ledger.size).toBe(0);
  });

  it('reports a chain with a listener once, when its root ends, and then forgets it', () => {
    const ledger = new ChainLedger();
    const ended: ChainSpend[] = [];
    ledger.open('r', 'root', (spend) => ended.push(spend));
    ledger.add('r', call('helper'));
    ledger.end('r');
    ledger.end('r');
    expect(ended).toEqual([{ participants: ['root', 'helper'], calls: [call('helper')] }]);
    expect(ledger.size).toBe(0);
  });

  it('a chain without a listener waits to be taken after its root ended', () => {
    const ledger = new ChainLedger();
    ledger.open('r', 'a');
    ledger.end('r');
    expect(ledger.take('r')?.participants).toEqual(['a']);
  });
});
