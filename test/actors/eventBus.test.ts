import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/actors/eventBus.js';
import type { CoreEvent } from '../../src/core/events.js';

describe('EventBus', () => {
  it('delivers typed events to their listeners and every event to catch-all listeners', () => {
    const bus = new EventBus();
    const failed: string[] = [];
    const all: string[] = [];
    const off = bus.on('agentFailed', (e) => failed.push(e.error.code));
    bus.onAny((e) => all.push(e.type));
    bus.emit({ type: 'agentFailed', agentId: 'a', error: { code: 'WORKER_CRASHED', message: 'x', retryable: false, fault: 'system' } });
    bus.emit({ type: 'topologyChanged' });
    off();
    bus.emit({ type: 'agentFailed', agentId: 'a', error: { code: 'BUG', message: 'x', retryable: false, fault: 'system' } });
    expect(failed).toEqual(['WORKER_CRASHED']);
    expect(all).toEqual(['agentFailed', 'topologyChanged', 'agentFailed']);
    expect(bus.listenerCount()).toBe(1);
  });

  it('a throwing listener is reported and the others still run', () => {
    const errors: string[] = [];
    const bus = new EventBus((type) => errors.push(type));
    const seen: CoreEvent[] = [];
    bus.onAny(() => {
      throw new Error('listener bug');
    });
    bus.onAny((e) => seen.push(e));
    bus.emit({ type: 'conversationCleared' });
    expect(errors).toEqual(['conversationCleared']);
    expect(seen).toHaveLength(1);
  });
});
