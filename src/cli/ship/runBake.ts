/**
 * `fuseforks-cli bake` and `seed` as testable functions: call the host's bake / seed, render what they did, and
 * map failures onto the one exit-code table (BAKE_INVALID is an argument error: a wrong --out or --from).
 */
import { jsonText } from '../jsonFormat.js';
import { isFuseforksError } from '../../core/errors.js';
import type { Finding } from '../../core/preflight/finding.js';
import type { RunApprovalMode } from '../../core/tools/contract.js';
import { parseShelfList, SHELF_FILES } from '../../core/village/designFiles.js';
import type { BakeManifest } from '../../host/ship/bakeManifest.js';
import { EXIT, exitForArgumentError, exitForBootError, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';

/** Parsed arguments of `bake`. */
export interface BakeCliOptions {
  dataDir: string;
  out: string;
  start: string;
  withShelf: string | undefined;
  bypassPlanReview: boolean;
  runApproval: RunApprovalMode;
  json: boolean;
  /** Refuse unless the newest eval run of this design on this machine passed every case (exit 10). */
  requireEvals?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Parsed arguments of `seed`. */
export interface SeedCliOptions {
  from: string;
  dataDir: string;
  updateDesign: boolean;
  replaceMemory: boolean;
}

const NOTE_LEVEL = { reject: 'error', warn: 'warn', info: 'info' } as const;

/** Runs `bake`: 0 baked, 3 the village would be refused by `serve`, 2 bad --out/--start/--with-shelf, 5 no village, 10 --require-evals unmet. */
export async function runBake(options: BakeCliOptions, output: CliOutput): Promise<ExitCode> {
  const shelf = parseShelfList((options.withShelf ?? '').split(','));
  if (!shelf.ok) {
    output.note({ level: 'error', code: 'ARGUMENT', message: `--with-shelf: "${shelf.bad}" is not a shelf file.`, fix: `Name shelf files separated by commas: ${SHELF_FILES.join(', ')}.` });
    return exitForArgumentError();
  }
  const { evalStatusOf } = await import('../../host/evals/evalStatus.js');
  const { evalGateText } = await import('../../core/evals/evalGate.js');
  const gate = await evalStatusOf(options.dataDir);
  if (options.requireEvals === true && gate !== null && gate.kind !== 'passed') {
    output.note({
      level: 'error',
      code: 'EVALS_REQUIRED',
      message: `Not baked: --require-evals needs a passing eval run of this design on this machine. ${evalGateText(gate)}; nothing was written.`,
      fix: gate.kind === 'no_cases' ? 'Add eval cases under workspace/evals/, run `fuseforks-cli eval`, then bake again.' : 'Run `fuseforks-cli eval` on this design until every case passes, then bake again.',
    });
    return EXIT.evalsFailed;
  }
  const { bakeVillage } = await import('../../host/ship/bake.js');
  let result;
  try {
    result = await bakeVillage({
      dataDir: options.dataDir,
      out: options.out,
      start: options.start,
      withShelf: shelf.files,
      bypassPlanReview: options.bypassPlanReview,
      runApproval: options.runApproval,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  } catch (error) {
    return reportFailure(error, output);
  }
  if (result.kind === 'argument') {
    output.note({ level: 'error', code: 'ARGUMENT', message: result.error.message, fix: result.error.fix });
    return exitForArgumentError();
  }
  noteFindings(result.findings, output);
  if (result.kind === 'rejected') {
    output.note({ level: 'error', code: 'BAKE_REFUSED', message: 'Not baked: `serve` would refuse this village (see above); nothing was written.', fix: 'Fix the rejects above (in the GUI), then bake again.' });
    return EXIT.preflightRejected;
  }
  if (gate !== null) output.note({ level: gate.kind === 'passed' || gate.kind === 'no_cases' ? 'info' : 'warn', code: 'EVAL_STATUS', message: evalGateText(gate) });
  output.stdout(options.json ? jsonText({ out: result.out, ...result.manifest }) : bakeSummary(result.out, result.manifest, options.bypassPlanReview));
  return EXIT.ok;
}

/** Runs `seed`: 0 seeded / kept / updated, 2 not a bake, 4 the village is open, 5 another village. */
export async function runSeed(options: SeedCliOptions, output: CliOutput): Promise<ExitCode> {
  const { seedVillage } = await import('../../host/ship/seed.js');
  let result;
  try {
    result = await seedVillage(options);
  } catch (error) {
    return reportFailure(error, output);
  }
  const where = options.dataDir;
  if (result.kind === 'kept') {
    output.note({ level: 'info', code: 'SEED_KEPT', message: `${where} already holds a village; nothing was changed (use --update-design to replace its design).` });
  } else if (result.kind === 'seeded') {
    output.note({ level: 'info', code: 'SEEDED', message: `Seeded ${where} with ${result.written.length} file(s) from the bake.` });
  } else {
    const kept = result.keptMemory.length > 0 ? `; kept ${result.keptMemory.length} Memory.md the agents wrote to (--replace-memory replaces them)` : '';
    output.note({ level: 'info', code: 'DESIGN_UPDATED', message: `Replaced ${result.written.length} design file(s) and removed ${result.removed.length} in ${where}; sessions, log and shelf kept${kept}.` });
  }
  return EXIT.ok;
}

function noteFindings(findings: readonly Finding[], output: CliOutput): void {
  for (const f of findings) output.note({ level: NOTE_LEVEL[f.level], code: f.code, message: f.message, fix: f.fix });
}

function reportFailure(error: unknown, output: CliOutput): ExitCode {
  if (!isFuseforksError(error)) throw error;
  const e = error;
  output.note({ level: 'error', code: e.code, message: e.message, ...(e.fix ? { fix: e.fix } : {}) });
  return e.code === 'BAKE_INVALID' ? exitForArgumentError() : exitForBootError(e.code);
}

/** What a person reads after a bake: where it went, and what the container must be given. */
export function bakeSummary(out: string, m: BakeManifest, bypassPlanReview: boolean): string {
  const lines = [`Baked ${m.files.length} file(s) into ${out}${m.villageId === null ? '' : ` (village ${m.villageId})`}.`];
  lines.push(`Start set (--start ${m.start.flag}): ${m.start.ids.join(', ') || '(none)'}`);
  lines.push(`Environment the container needs: ${m.secrets.length === 0 ? 'no FUSEFORKS_SECRET_* variable' : m.secrets.join(', ')}`);
  const mcp = m.mcpCommands.map((c) => `${c.command} (${c.agentId === null ? 'shared' : `agent ${c.agentId}`} server "${c.server}")`);
  lines.push(`Commands the image must provide for stdio MCP servers: ${mcp.length === 0 ? 'none' : mcp.join(', ')}`);
  lines.push(
    m.shelf.length === 0
      ? 'Shelf files: none baked (the door, probe approvals and Jev settings stay on this machine; put them in /data on purpose).'
      : `Shelf files baked on purpose: ${m.shelf.join(', ')}`,
  );
  lines.push(`Run: fuseforks-cli serve --data-dir /data --secrets env --start ${m.start.flag}${bypassPlanReview ? ' --bypass-plan-review' : ''}`);
  return lines.join('\n');
}
