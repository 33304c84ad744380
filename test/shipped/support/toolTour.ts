/**
 * One `ask` that makes an agent call every built-in tool in turn, through whichever shipped CLI it is handed: the
 * stub LLM (OpenAI-compatible, streamed) answers each request with the next scripted tool call, so the request
 * after a call carries that tool's result exactly as the agent's worker produced it — the walk, the match and the
 * diff on the scanning pool, the yq editors loaded lazily by the engine bundle, a `run` child, the Jev judge on the
 * same stub. Each result is checked for the tool's real output (a match line, a diff line, a file's content), and
 * the files the tools wrote are read back afterwards.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeRun, letAgentRun, makeVillage, ROOT, type Temps } from '../../cli/support/cliProcess.js';
import { reply, toolResultsOf, type StubLlm, type StubRequest } from '../../support/stubLlm.js';
import type { ShippedCli } from './shippedCli.js';

/** One scripted call and what its result must show. */
interface TourStep {
  tool: string;
  args: Record<string, unknown>;
  /** Every pattern must match the result text the next request carries. */
  shows: RegExp[];
}

/** The agent's work folder: notes to search and diff, a JSONC and a TOML file to edit, reference docs for rag. */
function makeWorkFolder(temps: Temps): { work: string; docs: string } {
  const work = temps.make('ff-tour-work-');
  mkdirSync(join(work, 'notes'));
  writeFileSync(join(work, 'notes/alpha.md'), 'Harbour log\nThe harbour opens at dawn.\nPilot boats: three.\n');
  writeFileSync(join(work, 'notes/beta.md'), 'Harbour log\nThe harbour opens at noon.\nPilot boats: three.\n');
  writeFileSync(join(work, 'settings.json'), readFileSync(join(ROOT, 'test/fixtures/tools/settings.json')));
  writeFileSync(join(work, 'village.toml'), readFileSync(join(ROOT, 'test/fixtures/tools/village.toml')));
  const docs = temps.make('ff-tour-docs-');
  writeFileSync(join(docs, 'tides.md'), '# Tides\n\n## Spring tides\n\nThe spring tide floods the lower quay.\n\n## Neap tides\n\nBoats stay moored.\n');
  return { work, docs };
}

const STEPS: TourStep[] = [
  { tool: 'remember', args: { note: 'The harbour opens at dawn.' }, shows: [/^Remembered \(26 chars\)\.$/] },
  { tool: 'grep', args: { pattern: 'opens at (dawn|noon)', path: 'notes' }, shows: [/^2 matches in 2 files:$/m, /^notes\/alpha\.md:2: The harbour opens at dawn\.$/m, /^notes\/beta\.md:2: The harbour opens at noon\.$/m] },
  { tool: 'fd', args: { pattern: '^beta' }, shows: [/^1 matches:\nnotes\/beta\.md$/] },
  { tool: 'diff', args: { old_path: 'notes/alpha.md', new_path: 'notes/beta.md' }, shows: [/^--- notes\/alpha\.md$/m, /^-The harbour opens at dawn\.$/m, /^\+The harbour opens at noon\.$/m, /^ Pilot boats: three\.$/m] },
  { tool: 'file', args: { op: 'write', path: 'out/report.md', content: 'Report: open at dawn\n' }, shows: [/^Wrote 21 chars to out\/report\.md\.$/] },
  { tool: 'file', args: { op: 'read', path: 'out/report.md' }, shows: [/^Report: open at dawn$/m] },
  { tool: 'sd', args: { path: 'out/report.md', pattern: 'dawn', replacement: 'sunrise', apply: true }, shows: [/^Applied: 1 replacements in out\/report\.md\./, /^-Report: open at dawn$/m, /^\+Report: open at sunrise$/m] },
  { tool: 'yq', args: { path: 'settings.json', op: 'set', key: 'limits.rounds', value: 20, apply: true }, shows: [/^Applied: set limits\.rounds in settings\.json\./, /^ {5}\/\/ the GUI reads this$/m, /^-\s+"rounds": 12,$/m, /^\+\s+"rounds": 20,$/m] },
  { tool: 'yq', args: { path: 'village.toml', op: 'set', key: 'server.port', value: 9090, apply: true }, shows: [/^Applied: set server\.port in village\.toml\./, /^-port = 8080$/m, /^\+port = 9090$/m] },
  { tool: 'yq', args: { path: 'village.toml', op: 'get', key: 'agents[1].name' }, shows: [/^agents\[1\]\.name = "zari"$/] },
  { tool: 'blackboard', args: { op: 'post', title: 'Tide watch', body: 'High water at six.' }, shows: [/^Posted to the blackboard: blackboard\/\d{8}T\d{9}Z-desk\.md$/] },
  { tool: 'blackboard', args: { op: 'list' }, shows: [/^1 notes on the blackboard/, /· desk · .* · Tide watch \(\d+ chars\)$/m] },
  { tool: 'rag', args: { op: 'search', pattern: 'spring tide' }, shows: [/^tides\.md:5: The spring tide floods the lower quay\.$/m, /§ Tides > Spring tides/] },
  { tool: 'run', args: { command: 'cat', args: ['notes/alpha.md'] }, shows: [/^exit: 0$/m, /^The harbour opens at dawn\.$/m] },
  { tool: 'judge', args: { question: 'Is the harbour log consistent?', material: 'alpha says dawn, beta says noon' }, shows: [/^The judge \(jev-model\) says:\nVerdict: inconsistent, dawn against noon\.$/] },
];

const FINAL = 'Tour done: every tool answered.';
const JEV_MODEL = 'jev-model';

/** Runs the tour through `cli` and checks every tool's result and every file the tools changed. */
export async function runToolTour(cli: ShippedCli, stub: StubLlm, temps: Temps): Promise<void> {
  const { work, docs } = makeWorkFolder(temps);
  const dir = makeVillage(temps, { baseUrl: stub.baseUrl, agents: [{ id: 'desk', maxToolIterations: 30 }, { id: 'referee', batchStart: false }], credential: 'not_required' });
  letAgentRun(dir, 'desk', ['cat notes/alpha.md'], work);
  const worldFile = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { agents: Array<Record<string, unknown>> };
  Object.assign(world.agents[0]!, { enabledTools: ['remember', 'grep', 'fd', 'diff', 'file', 'sd', 'yq', 'blackboard', 'run'], ragSources: [docs] });
  writeFileSync(worldFile, JSON.stringify(world));
  mkdirSync(join(dir, 'workspace/agents/referee'), { recursive: true });
  writeFileSync(join(dir, 'workspace/agents/referee/SKILL.md'), 'Judge harbour logs: times must agree.\n');
  writeFileSync(join(dir, 'workspace/agents/desk/judge.json'), '{"to": "referee"}');
  writeFileSync(join(dir, 'jev.json'), JSON.stringify({ baseUrl: stub.baseUrl, model: JEV_MODEL, wire: 'open_ai_compat' }));

  const desk = (r: StubRequest): boolean => r.model !== JEV_MODEL;
  stub.respond((r) => {
    if (!desk(r)) return reply.text('Verdict: inconsistent, dawn against noon.');
    const step = STEPS[toolResultsOf(r).length];
    return step === undefined ? reply.text(FINAL) : reply.tool(step.tool, step.args);
  });

  const ask = await cli.run(['ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env', 'Walk the harbour tools.'], { FUSEFORKS_SECRET_JEV_API_TOKEN: 'jev-tour-token' });
  expect(ask.code, `${cli.label}: ${describeRun(ask)}`).toBe(0);
  expect(ask.stdout.trim()).toBe(FINAL);

  const deskRequests = stub.requests.filter(desk);
  expect(deskRequests.every((r) => r.wire === 'openai' && r.stream), 'the tour runs on the streamed OpenAI-compatible wire').toBe(true);
  const results = toolResultsOf(deskRequests.at(-1)!).map((t) => t.text);
  expect(results, `${cli.label}: one result per scripted call`).toHaveLength(STEPS.length);
  STEPS.forEach((step, i) => {
    for (const pattern of step.shows) expect(results[i], `${cli.label}: ${step.tool} ${JSON.stringify(step.args)} answered:\n${results[i]}`).toMatch(pattern);
  });
  // Every result reached the model the moment it was made: request i+1 carries exactly the first i+1 results.
  deskRequests.slice(1).forEach((r, i) => expect(toolResultsOf(r).map((t) => t.text)).toEqual(results.slice(0, i + 1)));

  // The judge's request went to the helper model with the referee's rules and the material.
  const verdict = stub.requests.find((r) => !desk(r));
  expect(verdict?.system ?? '', 'the judge carries the referee agent as its rules').toContain('times must agree');
  expect(JSON.stringify(verdict?.body ?? {})).toContain('alpha says dawn, beta says noon');

  // What the tools changed is on disk.
  expect(readFileSync(join(dir, 'workspace/agents/desk/Memory.md'), 'utf8')).toContain('The harbour opens at dawn.');
  expect(readFileSync(join(work, 'out/report.md'), 'utf8')).toBe('Report: open at sunrise\n');
  const settings = readFileSync(join(work, 'settings.json'), 'utf8');
  expect(settings).toContain('// the GUI reads this');
  expect(settings).toContain('"rounds": 20,');
  const toml = readFileSync(join(work, 'village.toml'), 'utf8');
  // The fixture is CRLF: the edit keeps its comments and line ends.
  expect(toml).toContain('# the port the door listens on\r\nport = 9090\r\n');
  const notes = readdirSync(join(work, 'blackboard'));
  expect(notes).toHaveLength(1);
  expect(readFileSync(join(work, 'blackboard', notes[0]!), 'utf8')).toContain('High water at six.');
}
