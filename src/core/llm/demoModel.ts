/**
 * The example village's offline model (`provider: "echo"`, `model: "demo"`): a small deterministic script that
 * behaves like a team that delegates, so the demo shows the product instead of an echo of its own prompt. The
 * reception (an agent with `ask_*` tools, asked from outside the village) asks the running colleague whose name
 * fits the request; the colleague answers with its part from its Skill; the reception then answers the person with
 * what came back. Every step is a real turn — real tool call, real worker threads, real session records — only
 * the words are scripted. No network, no clock, no randomness; each reply says it comes from the demo model and
 * quotes what it was asked, so nobody mistakes it for knowledge.
 */
import type { ChatMessage, ChatRequest, ChatResponse, LlmBackend, ToolSpec } from './canonical.js';
import { estimatedUsage } from './echo.js';

/** The `model` of an `echo` template that selects this script. */
export const DEMO_MODEL = 'demo';

/** First words of a message the script passes on: a colleague who reads them answers instead of passing it on. */
const HANDED_ON = { en: 'A request from outside the village:', ja: '村の外からの依頼です:' } as const;

type Lang = 'en' | 'ja';

/** Which colleague a request's words point to (first match wins; else the first running colleague). */
const TOPICS: ReadonlyArray<{ words: RegExp; colleague: RegExp }> = [
  { words: /review|check|proofread|レビュー|確認/i, colleague: /review/i },
  { words: /archive|decided|before|history|remember|記録|以前/i, colleague: /archiv/i },
  { words: /write|draft|prose|essay|書いて|文章/i, colleague: /writ/i },
  { words: /find|fact|research|who|what|why|how|調べ|事実/i, colleague: /research/i },
];

/** The demo script as a backend (named `echo` in logs: it is the offline family). */
export class DemoBackend implements LlmBackend {
  readonly name = 'echo' as const;

  chat(request: ChatRequest): Promise<ChatResponse> {
    return Promise.resolve(demoReply(request));
  }
}

/** The script's answer to one request (pure). */
export function demoReply(request: ChatRequest): ChatResponse {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const lang: Lang = system.includes('## あなたについて') ? 'ja' : 'en';
  const lastUser = lastIndex(request.messages, (m) => m.role === 'user');
  const incoming = parseIncoming(lastUser < 0 ? '' : request.messages[lastUser]!.content);
  const results = request.messages.slice(lastUser + 1).filter((m) => m.role === 'tool');

  if (results.length > 0) return text(request, answerWith(results, request.tools, system, incoming.body, lang));
  const target = incoming.body.startsWith(HANDED_ON[lang]) ? null : pickColleague(request.tools, system, incoming);
  if (target !== null) {
    const message = `${HANDED_ON[lang]} ${incoming.body}`;
    return {
      text: null,
      toolCalls: [{ id: 'call_demo_1', name: target.tool, args: { message } }],
      finish: 'tool_use',
      usage: estimatedUsage(request, message),
    };
  }
  return text(request, ownAnswer(system, incoming.body, lang));
}

function text(request: ChatRequest, reply: string): ChatResponse {
  return { text: reply, toolCalls: [], finish: 'stop', usage: estimatedUsage(request, reply) };
}

function lastIndex(messages: readonly ChatMessage[], test: (m: ChatMessage) => boolean): number {
  for (let i = messages.length - 1; i >= 0; i--) if (test(messages[i]!)) return i;
  return -1;
}

/** The sender label and the body of the newest enveloped message (`【Sender: X】\n…`), framing notes dropped. */
function parseIncoming(content: string): { sender: string | null; body: string } {
  const heads = [...content.matchAll(/【(?:Sender|送り手): ([^】\n]*)】\n/g)];
  const head = heads.at(-1);
  if (head === undefined) return { sender: null, body: content.trim() };
  return { sender: head[1]!, body: content.slice(head.index + head[0].length).trim() };
}

/** `ask_*` tools whose colleague runs now and did not send the request, with the colleague's display name. */
function colleagues(tools: readonly ToolSpec[], system: string, sender: string | null): Array<{ tool: string; id: string; name: string }> {
  const out: Array<{ tool: string; id: string; name: string }> = [];
  for (const tool of tools) {
    if (!tool.name.startsWith('ask_')) continue;
    const id = tool.name.slice('ask_'.length);
    const name = nameIn(tool.description) ?? id;
    // The roster line says who runs: `id (Name): running` (ja: `id（Name）: 稼働中`).
    const status = new RegExp(`(?:^|/ )${escape(id)}\\s?[（(][^)）]*[)）](?:\\s?[［[][^\\]］]*[\\]］])?: (\\S+)`, 'm').exec(system)?.[1];
    if (status !== undefined && status !== 'running' && status !== '稼働中') continue;
    if (sender !== null && sender === name) continue;
    out.push({ tool: tool.name, id, name });
  }
  return out;
}

function pickColleague(tools: readonly ToolSpec[], system: string, incoming: { sender: string | null; body: string }): { tool: string; name: string } | null {
  const running = colleagues(tools, system, incoming.sender);
  for (const topic of TOPICS) {
    if (!topic.words.test(incoming.body)) continue;
    const match = running.find((c) => topic.colleague.test(c.id) || topic.colleague.test(c.name));
    if (match !== undefined) return match;
  }
  return running[0] ?? null;
}

/** `Ask NAME and wait for the answer.` / `NAME に質問し、答えを待ちます。` → NAME. */
function nameIn(description: string): string | null {
  return /^Ask (.+) and wait for the answer\.$/.exec(description)?.[1] ?? /^(.+) に質問し、答えを待ちます。$/.exec(description)?.[1] ?? null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `You are "NAME" (ID: id)` → NAME. */
function selfName(system: string): string {
  return /You are "([^"]+)" \(ID: /.exec(system)?.[1] ?? /あなたは「(.+?)」（ID: /.exec(system)?.[1] ?? 'this agent';
}

/** What the agent's Skill says it does: its first sentence, or the second when the first only names it. */
function skillLead(system: string): string | null {
  const skill = /## Skill\n([\s\S]*?)(?:\n\n## |$)/.exec(system)?.[1]?.trim();
  if (skill === undefined || skill === '') return null;
  const sentences = (skill.match(/[^.!?。\n]+(?:[.!?]+(?=\s|$)|。|\n|$)/g) ?? [skill]).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const naming = /^(?:You are |あなたは)/;
  return (naming.test(sentences[0] ?? '') && sentences[1] !== undefined ? sentences[1] : sentences[0]) ?? null;
}

function quote(text: string, lang: Lang): string {
  const flat = text.replace(/^(?:A request from outside the village:|村の外からの依頼です:)\s*/, '').replace(/\s+/g, ' ').trim();
  const cut = flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
  return lang === 'ja' ? `「${cut}」` : `“${cut}”`;
}

/** A colleague's (or a lone agent's) own answer: who it is, what it was asked, its part from its Skill. */
function ownAnswer(system: string, body: string, lang: Lang): string {
  const me = selfName(system);
  const lead = skillLead(system);
  if (lang === 'ja') {
    return `${me}です（オフラインのデモモデル）。依頼${quote(body, lang)}` + (lead === null ? '' : ` — この村での私の役目: ${lead}`) + ' 本物のモデルなら、ここに調べた中身を書きます。';
  }
  return `${me} here (offline demo model). Asked ${quote(body, lang)}` + (lead === null ? '.' : ` — my part in this village: ${lead}`) + ' A real model would put its actual findings here.';
}

/** The reception's answer after its colleagues replied: who was asked and what each said. */
function answerWith(results: readonly ChatMessage[], tools: readonly ToolSpec[], system: string, body: string, lang: Lang): string {
  const answers = results.map((r) => {
    const tool = tools.find((t) => t.name === r.toolName);
    return { who: (tool === undefined ? null : nameIn(tool.description)) ?? r.toolName?.replace(/^ask_/, '') ?? '?', text: r.content.trim() };
  });
  const names = [...new Set(answers.map((a) => a.who))];
  const me = selfName(system);
  if (lang === 'ja') return [`${me}です。${quote(body, lang)}について${names.join('と')}に聞きました。`, ...answers.map((a) => `- ${a.who}: ${a.text}`)].join('\n');
  return [`${me} here. I asked ${names.join(' and ')} about your request ${quote(body, lang)}:`, ...answers.map((a) => `- ${a.who}: ${a.text}`)].join('\n');
}
