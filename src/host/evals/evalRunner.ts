/**
 * Runs eval cases against an open village through its HostApi (nothing else of the host is touched): each repeat
 * in a fresh conversation — every agent stopped, a new conversation made current, the case's start set started
 * (so no agent carries history from the repeat before), the setup files written, then the request sent as an
 * external client exactly as `ask` sends it. The trace comes from the conversation's records (who was asked, each
 * turn's rounds and hop) and the run's events (each tool call with its arguments); the verdicts from
 * core/evals/judgeRepeat.ts.
 *
 * One repeat at a time: a village has one current conversation and serves external requests one at a time, so
 * repeats of one village cannot overlap without sharing a conversation. The whole run stops starting repeats once
 * the token budget is spent or the signal is aborted; what did not run is reported as such, never as passed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { EvalCase } from '../../core/evals/evalCase.js';
import { caseResult, summarize, type CaseResult, type RepeatResult } from '../../core/evals/caseResult.js';
import { answerLabel, judgeRepeat, type JsonSchemaCheck, type RepeatTrace, type TracedToolCall, type Verdict } from '../../core/evals/judgeRepeat.js';
import type { EvalCaseProblem } from '../../core/evals/parseEvalCase.js';
import type { CoreEvent } from '../../core/events.js';
import { isFuseforksError } from '../../core/errors.js';
import { resolveStartSet } from '../../core/world/startSet.js';
import type { HostApi } from '../hostApi.js';
import { evalsDir } from './evalFiles.js';
import type { EvalRunRecord } from './evalResults.js';
import { judgeRubric, type RubricPorts } from './rubricCall.js';

/** The client name eval requests carry (it shows in the conversation as `external:fuseforks-eval`). */
export const EVAL_CLIENT = 'fuseforks-eval';
/** Longest wait for the reception's turn record after the answer (its record follows the reply). */
const TURN_RECORD_WAIT_MS = 15_000;

/** What one run is asked to do. */
export interface EvalRunOptions {
  /** `--start` for cases that name none. */
  start: string;
  /** The cases to run (already chosen and parsed). */
  cases: readonly EvalCase[];
  /** Files that could not be used (reported in the record; they fail the run). */
  problems: readonly EvalCaseProblem[];
  /** Overrides every case's repeat count. */
  repeat?: number;
  /** Effective tokens the whole run may spend (checked before each repeat). */
  budget?: number;
  signal?: AbortSignal;
  /** Called after each repeat (progress for the CLI and the GUI). */
  onRepeat?: (caseId: string, result: RepeatResult) => void;
}

/** What the runner needs besides the HostApi. */
export interface EvalRunnerPorts {
  host: HostApi;
  rubric: RubricPorts;
  schema: JsonSchemaCheck;
  digest: () => Promise<string>;
  now?: () => Date;
}

/** `20261204T013400123Z-1a2b3c` — sortable by time. */
function runIdOf(at: Date): string {
  return `${at.toISOString().replace(/[-:.]/g, '')}-${Math.random().toString(16).slice(2, 8)}`;
}

/** Runs every case; answers the record (the caller saves it). */
export async function runEvals(options: EvalRunOptions, ports: EvalRunnerPorts): Promise<EvalRunRecord> {
  const now = ports.now ?? (() => new Date());
  const startedAt = now();
  const digest = await ports.digest();
  const results: CaseResult[] = [];
  let spent = 0;
  let stopReason: string | null = null;
  const signal = options.signal;
  const onAbort = (): void => void ports.host.interruptAll();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (const c of options.cases) {
      const wanted = options.repeat ?? c.repeat;
      const sized = { ...c, repeat: wanted };
      const repeats: RepeatResult[] = [];
      let skipped: string | null = stopReason;
      for (let n = 1; n <= wanted && skipped === null; n++) {
        if (signal?.aborted === true) stopReason = 'interrupted';
        else if (options.budget !== undefined && spent >= options.budget) stopReason = `the run's token budget of ${options.budget} effective tokens is spent (${spent})`;
        if (stopReason !== null) {
          skipped = stopReason;
          break;
        }
        try {
          const result = await runRepeat(sized, n, options.start, ports, signal);
          spent += result.effectiveTokens;
          repeats.push(result);
          options.onRepeat?.(c.id, result);
          if (signal?.aborted === true) stopReason = 'interrupted';
        } catch (error) {
          if (!isFuseforksError(error)) throw error;
          skipped = `${error.code}: ${error.message}`;
        }
      }
      results.push(caseResult(sized, repeats, skipped));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return {
    format: 1,
    runId: runIdOf(startedAt),
    startedAt: startedAt.toISOString(),
    finishedAt: now().toISOString(),
    digest,
    start: options.start,
    budget: options.budget ?? null,
    interrupted: signal?.aborted === true,
    summary: summarize(results),
    cases: results,
    problems: [...options.problems],
  };
}

/** A case that cannot start (bad start set, no work folder for its setup) fails every repeat with this error. */
class CaseSetupError extends Error {}

/** Stops every agent, makes a new conversation current and starts the case's start set. */
async function freshConversation(host: HostApi, c: EvalCase, start: string, signal: AbortSignal | undefined): Promise<void> {
  const spec = c.start ?? start;
  const resolved = resolveStartSet(host.world(), spec, 'ask');
  if (!resolved.ok) throw new CaseSetupError(`${c.file}: start "${spec}": ${resolved.error.message}`);
  for (const agent of host.agents()) {
    if (agent.status === 'idle') continue;
    await host.stopAgent(agent.agentId).catch(() => undefined);
  }
  await host.newSession();
  await host.startSet(resolved.ids, signal);
}

/** Writes the case's setup files into the work folder of its agent (default: the reception). */
async function writeSetup(host: HostApi, c: EvalCase): Promise<void> {
  if (c.setup === null || c.setup.files.length === 0) return;
  const world = host.world();
  const agentId = c.setup.agent ?? world.reception;
  const agent = world.agents.find((a) => a.id === agentId);
  if (agent === undefined) throw new CaseSetupError(`${c.file}: field setup.agent names "${agentId ?? '(no reception)'}", which is not an agent of world.json.`);
  const folder = agent.workDir;
  if (folder === null || folder === '') throw new CaseSetupError(`${c.file}: field setup.files needs a work folder, but agent "${agent.id}" has no workDir (set one in world.json or the GUI).`);
  const root = resolve(folder);
  for (const file of c.setup.files) {
    const target = resolve(root, file.path);
    if (!target.startsWith(root + sep)) throw new CaseSetupError(`${c.file}: field setup.files path "${file.path}" leaves the work folder.`);
    const body = file.source.kind === 'text' ? file.source.text : await readFile(join(evalsDir(join(host.dataDir, 'workspace')), file.source.from));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, body);
  }
}

/** Resolves when `agentId`'s turn record arrives (or after the bounded wait). */
function turnRecorded(host: HostApi, agentId: string | null): { done: Promise<void>; dispose(): void } {
  let dispose = (): void => undefined;
  const done = new Promise<void>((resolveDone) => {
    const timer = setTimeout(resolveDone, TURN_RECORD_WAIT_MS);
    const off = host.events.subscribe((event) => {
      if (event.type === 'turnRecorded' && (agentId === null || event.agentId === agentId)) {
        clearTimeout(timer);
        resolveDone();
      }
    });
    dispose = () => {
      clearTimeout(timer);
      off();
    };
  });
  return { done, dispose };
}

/** One repeat of `c`: fresh conversation, setup, the request, the trace, the verdicts. */
async function runRepeat(c: EvalCase, n: number, start: string, ports: EvalRunnerPorts, signal: AbortSignal | undefined): Promise<RepeatResult> {
  const host = ports.host;
  const began = Date.now();
  try {
    await freshConversation(host, c, start, signal);
    await writeSetup(host, c);
  } catch (error) {
    if (!(error instanceof CaseSetupError)) throw error;
    const verdict: Verdict = { expectation: 'setup', pass: false, reason: error.message };
    return emptyRepeat(n, verdict, Date.now() - began);
  }
  const toolCalls: TracedToolCall[] = [];
  const offTools = host.events.subscribe((event: CoreEvent) => {
    if (event.type === 'toolInvoked') toolCalls.push({ agentId: event.agentId, tool: event.tool, ok: event.ok, args: event.args ?? '{}' });
  });
  const reception = host.world().reception;
  const recorded = turnRecorded(host, reception);
  let outcome;
  try {
    outcome = await host.askExternal(EVAL_CLIENT, c.request, signal === undefined ? {} : { signal });
    if (outcome.state === 'answered' || outcome.state === 'handed_off') await recorded.done;
  } finally {
    recorded.dispose();
    offTools();
  }
  const sessionId = host.sessionId();
  const trace: RepeatTrace = {
    answer: outcome.answer,
    outcome: outcome.state,
    asked: [],
    toolCalls,
    maxRounds: 0,
    maxHop: 0,
    effectiveTokens: outcome.tokens.effective,
    costUsd: outcome.cost.usd,
  };
  if (sessionId !== null) {
    const stored = await host.readSession(sessionId);
    for (const record of stored.records) {
      if (record.kind === 'message' && record.message.to.kind === 'agent' && !trace.asked.includes(record.message.to.id)) trace.asked.push(record.message.to.id);
      if (record.kind === 'turn') {
        trace.maxRounds = Math.max(trace.maxRounds, record.rounds);
        trace.maxHop = Math.max(trace.maxHop, record.hop);
      }
    }
  }
  const rubrics: Verdict[] = [];
  for (const e of c.answer) {
    if (e.kind !== 'rubric') continue;
    rubrics.push(await judgeRubric(answerLabel(e), e, c.request, trace.answer, ports.rubric, signal ?? new AbortController().signal));
  }
  const verdicts = judgeRepeat(c, trace, rubrics, ports.schema);
  return {
    repeat: n,
    pass: verdicts.every((v) => v.pass),
    answer: trace.answer,
    outcome: trace.outcome,
    verdicts,
    chain: { asked: trace.asked, toolCalls: toolCalls.map(({ agentId, tool, ok }) => ({ agentId, tool, ok })), maxRounds: trace.maxRounds, maxHop: trace.maxHop },
    sessionId,
    effectiveTokens: trace.effectiveTokens,
    costUsd: trace.costUsd,
    durationMs: Date.now() - began,
  };
}

function emptyRepeat(n: number, verdict: Verdict, durationMs: number): RepeatResult {
  return {
    repeat: n,
    pass: false,
    answer: '',
    outcome: 'undeliverable',
    verdicts: [verdict],
    chain: { asked: [], toolCalls: [], maxRounds: 0, maxHop: 0 },
    sessionId: null,
    effectiveTokens: 0,
    costUsd: null,
    durationMs,
  };
}
