/**
 * The example village's demo model, table-driven over requests built with the runtime's own prompt composer,
 * delegation tools and envelope (so a change of their wording shows up here): the reception asks the running
 * colleague the request points to, a colleague answers with its Skill, the reception answers with what came back.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../../src/core/llm/canonical.js';
import { demoReply } from '../../../src/core/llm/demoModel.js';
import { buildDelegationTools } from '../../../src/core/turn/delegationTools.js';
import { envelopeText } from '../../../src/core/turn/envelope.js';
import type { RosterEntry } from '../../../src/core/turn/ports.js';
import { composeSystemPrompt } from '../../../src/core/turn/systemPrompt.js';
import type { Language } from '../../../src/core/world/types.js';

const TEAM: RosterEntry[] = [
  { id: 'researcher', name: 'Researcher', roleName: null, status: 'running' },
  { id: 'writer', name: 'Writer', roleName: null, status: 'running' },
  { id: 'reviewer', name: 'Reviewer', roleName: 'Checks', status: 'idle' },
];

function request(opts: { self?: [string, string]; skill?: string; roster?: RosterEntry[]; from: string; body: string; language?: Language; after?: ChatMessage[] }): ChatRequest {
  const language = opts.language ?? 'en';
  const [agentId, agentName] = opts.self ?? ['front', 'Front Desk'];
  const roster = opts.roster ?? TEAM;
  const system = composeSystemPrompt(
    { ordinance: 'Be brief.', construct: '', skill: opts.skill ?? 'You are the front desk. Route requests.', memory: '' },
    { agentId, agentName, workDir: null, language, roster },
  );
  const tools = buildDelegationTools(roster, { useHandoffTools: roster.length > 0, offerTransfer: false }, language).specs;
  return {
    model: 'demo',
    messages: [
      { role: 'system', content: system.text },
      { role: 'user', content: `## Arrivals and departures (newest last)\n- X is now running.\n\n${envelopeText(opts.from, opts.body, language).text}` },
      ...(opts.after ?? []),
    ],
    tools,
    toolChoice: 'auto',
    temperature: null,
    maxTokens: 1000,
    effort: null,
    cacheablePrefixLen: system.stableLen,
  };
}

const call = (r: ReturnType<typeof demoReply>) => r.toolCalls.map((c) => ({ name: c.name, message: (c.args as { message: string }).message }));

describe('demo model', () => {
  it.each([
    ['a fact question goes to the researcher', 'Find out who built the bridge.', 'ask_researcher'],
    ['a draft goes to the writer', 'Please write a short note for the team.', 'ask_writer'],
    ['a check for a stopped reviewer goes to the first running colleague', 'Please proofread this.', 'ask_researcher'],
    ['no topic: the first running colleague', 'Hello!', 'ask_researcher'],
  ])('%s', (_name, body, tool) => {
    const reply = demoReply(request({ from: 'cron (external client)', body }));
    expect(reply.finish).toBe('tool_use');
    expect(call(reply)).toEqual([{ name: tool, message: `A request from outside the village: ${body}` }]);
    expect(reply.usage.prompt).toBeGreaterThan(0);
  });

  it('answers itself, quoting the request, when no colleague runs', () => {
    const roster = TEAM.map((r) => ({ ...r, status: 'idle' as const }));
    const reply = demoReply(request({ roster, from: 'User', body: 'hello from the packed install' }));
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toBe(
      'Front Desk here (offline demo model). Asked “hello from the packed install” — my part in this village: Route requests. A real model would put its actual findings here.',
    );
  });

  it('a colleague answers what was passed on with its Skill, and never passes it on again', () => {
    const reply = demoReply(
      request({
        self: ['researcher', 'Researcher'],
        skill: 'You are the researcher. Gather the facts a question needs.\nAsk the archivist first.',
        roster: [{ id: 'archivist', name: 'Archivist', roleName: null, status: 'running' }],
        from: 'Front Desk',
        body: 'A request from outside the village: Find out who built the bridge.',
      }),
    );
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toBe(
      'Researcher here (offline demo model). Asked “Find out who built the bridge.” — my part in this village: Gather the facts a question needs. A real model would put its actual findings here.',
    );
  });

  it('never asks the colleague who sent the request', () => {
    const roster: RosterEntry[] = [{ id: 'writer', name: 'Writer', roleName: null, status: 'running' }];
    const reply = demoReply(request({ self: ['reviewer', 'Reviewer'], roster, from: 'Writer', body: 'Check my paragraph.' }));
    expect(reply.toolCalls).toEqual([]);
  });

  it('after the colleague replied, answers the person with who was asked and what came back', () => {
    const first = request({ from: 'cron (external client)', body: 'Find out who built the bridge.' });
    const asked = demoReply(first);
    const reply = demoReply({
      ...first,
      messages: [
        ...first.messages,
        { role: 'assistant', content: '', toolCalls: asked.toolCalls },
        { role: 'tool', toolCallId: 'call_demo_1', toolName: 'ask_researcher', content: 'Researcher here: nobody knows.' },
      ],
    });
    expect(reply.finish).toBe('stop');
    expect(reply.text).toBe('Front Desk here. I asked Researcher about your request “Find out who built the bridge.”:\n- Researcher: Researcher here: nobody knows.');
  });

  it('speaks Japanese in a Japanese village', () => {
    const body = '橋を造ったのは誰か調べてください。';
    const asked = demoReply(request({ language: 'ja', from: 'cron（外部クライアント）', body }));
    expect(call(asked)).toEqual([{ name: 'ask_researcher', message: `村の外からの依頼です: ${body}` }]);
    const own = demoReply(request({ language: 'ja', self: ['researcher', '調査係'], roster: [], from: '受付', body: `村の外からの依頼です: ${body}` }));
    expect(own.text).toBe(`調査係です（オフラインのデモモデル）。依頼「${body}」 — この村での私の役目: Route requests. 本物のモデルなら、ここに調べた中身を書きます。`);
  });
});
