/**
 * The room log end to end on real workers and the stub LLM: agent→agent messages land in the supervisor's
 * ring; an agent that hears the room log gets the excerpt (with an [id] on clipped lines) folded into its turn
 * and can pull the full text with `room_log`; an agent that does not hear it gets neither; user words never show.
 */
import { describe, expect, it } from 'vitest';
import { ROOM_LOG_TOOL } from '../../src/core/turn/roomLog.js';
import { reply, type StubRequest } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent, until } from './support/villageFixture.js';

const villages = useStubVillages();

const messagesOf = (r: StubRequest): Array<{ role: string; content: unknown }> =>
  (r.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
const lastUser = (r: StubRequest): string => String(messagesOf(r).filter((m) => m.role === 'user').at(-1)?.content ?? '');
const toolNames = (r: StubRequest): string[] =>
  ((r.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);

describe('room log on real workers', () => {
  it('shows A→B to a listening C with a handle, room_log returns the full text, a muted D sees nothing', async () => {
    const question = `QUESTION-START ${'q'.repeat(240)} QUESTION-END`;
    const v = villages.make([
      agent('A', ['B']),
      agent('B'),
      agent('C', [], { hearsRoomLog: true }),
      agent('D', [], { hearsRoomLog: false }),
    ]);
    await Promise.all(['A', 'B', 'C', 'D'].map((id) => v.sup.startAgent(id)));
    const requests: Record<string, StubRequest[]> = { A: [], B: [], C: [], D: [] };
    let pulled = '';
    villages.stub().respond((r) => {
      const id = r.model.replace(/^m-/, '');
      requests[id]?.push(r);
      switch (id) {
        case 'A':
          return toolResults(r).length === 0 ? reply.tool('ask_B', { message: question }) : reply.text('A is done');
        case 'B':
          return reply.text('short answer from B');
        case 'C': {
          if (toolResults(r).length > 0) {
            pulled = toolResults(r)[0] ?? '';
            return reply.text('C read it');
          }
          const handle = /- \[([0-9a-f-]+)\] Agent A → Agent B: /.exec(lastUser(r))?.[1] ?? 'none';
          return reply.tool(ROOM_LOG_TOOL, { id: handle });
        }
        default:
          return reply.text(`${id} answers`);
      }
    });

    const out = await v.sup.askExternalOutcome('tester', 'EXTERNAL-WORDS please ask B');
    expect(out.state).toBe('answered');
    v.sup.sendUserMessage('D', 'USER-WORDS-FOR-D');
    await until(() => v.recorder.turns.some((t) => t.agentId === 'D'), 'D turn');
    v.sup.sendUserMessage('C', 'what happened?');
    await until(() => v.recorder.turns.some((t) => t.agentId === 'C'), 'C turn');

    const cFirst = requests.C![0]!;
    const folded = lastUser(cFirst);
    expect(folded).toMatch(/^## The village square/);
    expect(folded).toMatch(/- \[[0-9a-f]{8}\] Agent A → Agent B: QUESTION-START q+… \(full length: 268 chars\)/);
    expect(folded).toContain('- Agent B → Agent A: short answer from B');
    expect(folded).toContain('- Agent D → User: D answers');
    expect(folded).not.toContain('USER-WORDS-FOR-D');
    expect(folded).not.toContain('EXTERNAL-WORDS');
    expect(folded).not.toContain('QUESTION-END');
    expect(folded).toContain('## Arrivals and departures (newest last)');
    // Order: room log · presence · sender envelope; history keeps exactly what was sent.
    expect(folded.indexOf('## The village square')).toBeLessThan(folded.indexOf('## Arrivals and departures'));
    expect(folded.endsWith('【Sender: User】\nwhat happened?')).toBe(true);
    expect(v.recorder.exchanges.find((e) => e.agentId === 'C')?.sent).toBe(folded);

    expect(toolNames(cFirst)).toContain(ROOM_LOG_TOOL);
    expect(pulled).toBe(`【Sender: Agent A → Agent B】\n${question}`);
    const read = v.diag.notes.find((n) => n.kind === 'room_log read');
    expect(read?.fields).toMatchObject({ agent: 'C', outcome: 'ok', chars: question.length });
    expect(JSON.stringify(v.diag.notes)).not.toContain('QUESTION-START');

    const dFolded = lastUser(requests.D![0]!);
    expect(dFolded).not.toContain('village square');
    expect(dFolded).not.toContain('QUESTION-START');
    expect(dFolded).toContain('## Arrivals and departures (newest last)');
    expect(toolNames(requests.D![0]!)).not.toContain(ROOM_LOG_TOOL);
    expect(toolNames(requests.A![0]!)).not.toContain(ROOM_LOG_TOOL);
  });
});
