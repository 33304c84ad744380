import { describe, expect, it } from 'vitest';
import { nodeSummary } from '../../../src/gui/client/lib/kizunaHud.js';
import type { AgentMessage, AgentSpec, World } from '../../../src/gui/client/lib/types.js';
import type { ChatLine } from '../../../src/gui/client/lib/view.js';

const spec = (id: string, extra: Partial<AgentSpec> = {}): AgentSpec =>
  ({ id, name: id.toUpperCase(), modelTemplateId: 't', ragSources: [], connectedAgents: [], order: 0, workDir: null, maxToolIterations: null, enabledTools: null, hearsRoomLog: true, allowHandoff: true, batchStart: true, roleId: null, groupId: null, hidden: false, planReview: false, ...extra }) as AgentSpec;
const world = { modelTemplates: [{ id: 't', name: 'Tmpl', model: 'm-1' }], agents: [] } as unknown as World;
const msg = (from: AgentMessage['from'], to: AgentMessage['to'], tsMs: number): AgentMessage => ({ id: `m${tsMs}`, from, to, content: '', tokens: 0, tsMs, hop: 0 });
const line = (agentId: string, tsMs: number, kind: ChatLine['kind'] = 'tool'): ChatLine => ({ id: `l${tsMs}`, kind, agentId, text: 'grep', ok: true, tsMs });

describe('nodeSummary', () => {
  it('names the template and model, the status (idle when unknown), the default tool set', () => {
    const s = nodeSummary(spec('a'), world, { status: {}, messages: [], lines: [] }, ['file', 'grep']);
    expect(s).toMatchObject({ templateName: 'Tmpl', model: 'm-1', status: 'idle', tools: ['file', 'grep'], defaultTools: true, lastActivity: null });
  });

  it('an explicit tool list, and a missing template shown by its id', () => {
    const s = nodeSummary(spec('a', { enabledTools: ['run'], modelTemplateId: 'gone' }), world, { status: { a: 'running' }, messages: [], lines: [] }, ['file']);
    expect(s).toMatchObject({ templateName: 'gone', model: '', status: 'running', tools: ['run'], defaultTools: false });
  });

  it.each<[string, AgentMessage[], ChatLine[], unknown]>([
    ['a received message', [msg({ kind: 'user' }, { kind: 'agent', id: 'a' }, 5)], [], { kind: 'message', tsMs: 5, sent: false }],
    ['the newest of a sent message and a tool run', [msg({ kind: 'agent', id: 'a' }, { kind: 'user' }, 9)], [line('a', 7)], { kind: 'message', tsMs: 9, sent: true }],
    ['a tool run after the message', [msg({ kind: 'agent', id: 'a' }, { kind: 'user' }, 3)], [line('a', 7)], { kind: 'tool', tsMs: 7, tool: 'grep', ok: true }],
    ['someone else\'s activity is not hers', [msg({ kind: 'user' }, { kind: 'agent', id: 'b' }, 5)], [line('b', 6), line('a', 8, 'notice')], null],
  ])('last activity: %s', (_name, messages, lines, expected) => {
    expect(nodeSummary(spec('a'), world, { status: {}, messages, lines }, []).lastActivity).toEqual(expected);
  });
});
