/**
 * README's command examples name only agents and model templates the example village (examples/village, what
 * `init` writes) has, or ones an earlier example of the README adds (`agents add`, `templates add`): a reader who
 * copies them onto the example village gets no "not found".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveAgentId } from '../../src/host/commands/agentEdits.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const EXAMPLE = JSON.parse(readFileSync(new URL('../../examples/village/workspace/world.json', import.meta.url), 'utf8')) as {
  agents: Array<{ id: string }>;
  modelTemplates: Array<{ id: string }>;
};

/** The words of every CLI line in the README's sh blocks (`node bin/run.js …` or `fuseforks-cli …`), comments cut. */
function commandLines(text: string): string[][] {
  const lines: string[][] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      const at = line.search(/(node bin\/run\.js|fuseforks-cli) /);
      if (at < 0 || line.startsWith('#')) continue;
      const words = [...line.slice(at).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
      lines.push(words.slice(words[0] === 'node' ? 2 : 1));
    }
  }
  return lines;
}

/** The agent and template ids one command line names: [kind, id] pairs. */
export function namedIds(words: readonly string[]): Array<['agent' | 'template', string]> {
  const named: Array<['agent' | 'template', string]> = [];
  const positional = (from: number): string[] => {
    const out: string[] = [];
    for (const w of words.slice(from)) {
      if (w.startsWith('-')) break;
      out.push(w);
    }
    return out;
  };
  const [topic, verb] = words;
  if (topic === 'secrets' && (verb === 'set' || verb === 'delete')) for (const id of positional(2).slice(0, 1)) named.push(['template', id]);
  if (topic === 'templates' && (verb === 'edit' || verb === 'remove')) for (const id of positional(2).slice(0, 1)) named.push(['template', id]);
  if (topic === 'approvals' && (verb === 'approve' || verb === 'reject')) for (const id of positional(2).slice(0, 1)) named.push(['agent', id]);
  if (topic === 'agents' && verb !== undefined && ['edit', 'remove', 'tie', 'untie'].includes(verb)) for (const id of positional(2)) named.push(['agent', id]);
  if (topic === 'village' && verb === 'set' && words[2] === 'reception') for (const id of positional(3)) if (id !== 'none') named.push(['agent', id]);
  for (let i = 0; i < words.length - 1; i += 1) {
    if (words[i] === '--to') named.push(['agent', words[i + 1]!]);
    if (words[i] === '--template') named.push(['template', words[i + 1]!]);
  }
  return named;
}

describe('README examples and the example village', () => {
  it('extracts the ids a command names', () => {
    expect(namedIds(['secrets', 'set', 'gpt-main', '-d', 'x'])).toEqual([['template', 'gpt-main']]);
    expect(namedIds(['approvals', 'approve', 'worker', 'make test', '-d', 'x'])).toEqual([['agent', 'worker']]);
    expect(namedIds(['agents', 'tie', 'front', 'a', 'b', '-d', 'x'])).toEqual([['agent', 'front'], ['agent', 'a'], ['agent', 'b']]);
    expect(namedIds(['schedules', 'add', '-d', 'x', '--to', 'front', '-m', 'hi'])).toEqual([['agent', 'front']]);
  });

  it('every agent and template a README command names exists in examples/village or is added by an earlier example', () => {
    const agents = new Set(EXAMPLE.agents.map((a) => a.id));
    const templates = new Set(EXAMPLE.modelTemplates.map((t) => t.id));
    const lines = commandLines(README);
    expect(lines.length).toBeGreaterThan(20);
    const unknown: string[] = [];
    for (const words of lines) {
      if (words[0] === 'agents' && words[1] === 'add' && words[2] !== undefined) agents.add(deriveAgentId(words[2], agents));
      if (words[0] === 'templates' && words[1] === 'add' && words[2] !== undefined) templates.add(words[2]);
      for (const [kind, id] of namedIds(words)) if (!(kind === 'agent' ? agents : templates).has(id) && !id.startsWith('<')) unknown.push(`${kind} ${id}: ${words.join(' ')}`);
    }
    expect(unknown).toEqual([]);
  });
});
