/**
 * `HostApi.evals`: the village's eval cases, a run of some or all of them through the host's own HostApi (runner
 * in evalRunner.ts), and the runs kept on this machine (evalResults.ts). A run names its cases by id; an id with
 * no file is EVAL_CASE_NOT_FOUND and a named case whose file cannot be used is EVAL_CASE_INVALID, before anything
 * runs. Running every case reports the unusable files in the record (and so fails the run) without stopping.
 */
import type { RepeatResult } from '../../core/evals/caseResult.js';
import { evalCaseInvalid, evalCaseNotFound } from '../../core/errors/evalErrors.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import type { World } from '../../core/world/types.js';
import type { HostApi } from '../hostApi.js';
import { designDigest } from './designDigest.js';
import { readEvalCases, type EvalCaseList } from './evalFiles.js';
import { listEvalRuns, saveEvalRun, type EvalRunRecord } from './evalResults.js';
import { runEvals } from './evalRunner.js';
import { ajvSchemaCheck } from './jsonSchemaCheck.js';

export type { EvalCaseList } from './evalFiles.js';
export type { EvalRunRecord } from './evalResults.js';

/** What to run. */
export interface EvalRunRequest {
  /** `--start` for cases that name none (the `ask` syntax: batch, reception, a,b). */
  start: string;
  /** Case ids (file names without .json); absent or empty = every case. */
  caseIds?: readonly string[];
  /** Repeats per case instead of each case's own `repeat`. */
  repeat?: number;
  /** Effective tokens the whole run may spend; repeats stop starting once it is spent. */
  budget?: number;
  /** Abort to interrupt: the turn in flight is cut, no further repeat starts. */
  signal?: AbortSignal;
  /** Progress: called after every repeat. */
  onRepeat?: (caseId: string, result: RepeatResult) => void;
}

/** The eval facet of a host. */
export interface EvalsApi {
  /** The case files as they are on disk now: parsed cases and the files that cannot be used. */
  list(): Promise<EvalCaseList>;
  /**
   * Runs the cases (one repeat at a time, each in a fresh conversation), saves the record on this machine, answers
   * it. It takes the village over while it runs: every running agent is stopped before each repeat and the case's
   * start set started, and the last repeat's conversation stays current afterwards (the GUI's current one is not
   * restored).
   */
  run(request: EvalRunRequest): Promise<EvalRunRecord & { file: string }>;
  /** Kept runs, newest first. */
  runs(limit?: number): Promise<EvalRunRecord[]>;
}

/** What the facet is built from. */
export interface EvalsPorts {
  dataDir: string;
  workspace: string;
  jevFile: string;
  secrets: SecretStore;
  world: () => World;
  /** The host itself (bound once it exists). */
  host: () => HostApi;
}

export function evalsFacet(ports: EvalsPorts): EvalsApi {
  return {
    list: () => readEvalCases(ports.workspace),
    runs: (limit) => listEvalRuns(ports.dataDir, limit),
    async run(request) {
      const all = await readEvalCases(ports.workspace);
      const ids = request.caseIds ?? [];
      let cases = all.cases;
      let problems = all.problems;
      if (ids.length > 0) {
        for (const id of ids) {
          const problem = all.problems.find((p) => p.file === `workspace/evals/${id}.json`);
          if (problem !== undefined) throw evalCaseInvalid(problem);
          if (!all.cases.some((c) => c.id === id)) throw evalCaseNotFound(id, all.cases.map((c) => c.id));
        }
        cases = all.cases.filter((c) => ids.includes(c.id));
        problems = [];
      }
      const record = await runEvals(
        {
          start: request.start,
          cases,
          problems,
          ...(request.repeat === undefined ? {} : { repeat: request.repeat }),
          ...(request.budget === undefined ? {} : { budget: request.budget }),
          ...(request.signal === undefined ? {} : { signal: request.signal }),
          ...(request.onRepeat === undefined ? {} : { onRepeat: request.onRepeat }),
        },
        {
          host: ports.host(),
          rubric: { jevFile: ports.jevFile, secrets: ports.secrets, world: ports.world },
          schema: ajvSchemaCheck(),
          digest: () => designDigest(ports.dataDir, ports.world().agents.map((a) => a.id)),
        },
      );
      const file = await saveEvalRun(ports.dataDir, record);
      return { ...record, file };
    },
  };
}
