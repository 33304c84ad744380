/**
 * Whether a design has a passing eval run on this machine (pure): the newest kept run of the same design digest
 * must have run every case the design has, each passed, with no unusable case file. `bake --require-evals` refuses
 * otherwise and names what is missing or failing; `bake` always says which it is.
 */
import type { CaseStatus } from './caseResult.js';

/** The part of a kept run the gate reads. */
export interface GateRun {
  runId: string;
  digest: string;
  finishedAt: string;
  interrupted: boolean;
  cases: ReadonlyArray<{ id: string; status: CaseStatus }>;
  problems: ReadonlyArray<{ file: string }>;
}

/** The gate's answer. */
export type EvalGate =
  | { kind: 'no_cases' }
  | { kind: 'not_run'; digest: string }
  | { kind: 'passed'; runId: string; finishedAt: string; cases: number }
  | { kind: 'failed'; runId: string; finishedAt: string; failing: string[]; notRun: string[]; unusable: string[] };

/** Decides from the design's case ids, its digest and the kept runs (newest first). */
export function evalGate(caseIds: readonly string[], unusableFiles: readonly string[], digest: string, runs: readonly GateRun[]): EvalGate {
  if (caseIds.length === 0 && unusableFiles.length === 0) return { kind: 'no_cases' };
  const run = runs.find((r) => r.digest === digest);
  if (run === undefined) return { kind: 'not_run', digest };
  const failing = run.cases.filter((c) => c.status !== 'passed').map((c) => c.id);
  const notRun = caseIds.filter((id) => !run.cases.some((c) => c.id === id));
  const unusable = [...new Set([...unusableFiles, ...run.problems.map((p) => p.file)])];
  if (failing.length === 0 && notRun.length === 0 && unusable.length === 0 && !run.interrupted) return { kind: 'passed', runId: run.runId, finishedAt: run.finishedAt, cases: run.cases.length };
  return { kind: 'failed', runId: run.runId, finishedAt: run.finishedAt, failing, notRun, unusable };
}

/** One line for people. */
export function evalGateText(gate: EvalGate): string {
  switch (gate.kind) {
    case 'no_cases':
      return 'evals: the design has no eval cases (workspace/evals/*.json)';
    case 'not_run':
      return `evals: no eval run of this design (${gate.digest.slice(0, 19)}) on this machine`;
    case 'passed':
      return `evals: all ${gate.cases} case(s) passed on this design (run ${gate.runId})`;
    case 'failed': {
      const parts = [
        gate.failing.length > 0 ? `not passed: ${gate.failing.join(', ')}` : '',
        gate.notRun.length > 0 ? `not run: ${gate.notRun.join(', ')}` : '',
        gate.unusable.length > 0 ? `unusable: ${gate.unusable.join(', ')}` : '',
      ].filter(Boolean);
      return `evals: the last run of this design (run ${gate.runId}) did not pass — ${parts.join('; ') || 'it was interrupted'}`;
    }
  }
}
