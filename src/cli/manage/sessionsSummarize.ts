/**
 * `fuseforks-cli sessions summarize [--session ID] [--agent ID]…`: "summarize and continue" without the GUI, through
 * `HostApi.summarize` — the same run the GUI's chat action starts: one no-tools call per agent with something new
 * to fold, the summary stored as a `summary` record, that history folded from the agent's next turn on.
 *
 * The host summarizes running agents only, so this command starts the agents that have unsummarized exchanges in
 * the conversation (the others are reported as having nothing to fold, with no worker started) and closes them
 * again. It writes to the store, so while a serve or the GUI holds the village it refuses (exit 4): the GUI's chat
 * has the same action, and serve's door only carries `ask` — a summary is not a request to the reception.
 */
import { jsonText } from '../jsonFormat.js';
import { isFuseforksError } from '../../core/errors.js';
import { summaryInput } from '../../core/summaries/summaryInput.js';
import type { SummarizeReport } from '../../core/summaries/summaryReport.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';
import { summarizeText } from './sessionsText.js';

/** Parsed flags. */
export interface SummarizeOptions {
  dataDir: string;
  json: boolean;
  /** Default: the latest conversation. */
  session?: string;
  /** Default: every agent of the village. */
  agents: readonly string[];
  secrets: 'keyring' | 'env';
}

type Run = { kind: 'done'; report: SummarizeReport } | { kind: 'unknown'; ids: string[]; known: string[] };

/** Runs `sessions summarize`; the report (or its text) on stdout; exit 1 when an agent's summary call failed. */
export async function runSessionsSummarize(options: SummarizeOptions, output: CliOutput): Promise<ExitCode> {
  let run: Run;
  try {
    const managed = await withVillage(
      options.dataDir,
      'sessions summarize',
      output,
      async (host): Promise<Run> => {
        const known = host.world().agents.map((a) => a.id);
        const unknown = options.agents.filter((id) => !known.includes(id));
        if (unknown.length > 0) return { kind: 'unknown', ids: unknown, known };
        const sessionId = options.session ?? host.sessionId();
        if (options.session !== undefined) await host.openSession(options.session);
        const wanted = options.agents.length > 0 ? [...options.agents] : known;
        // Only agents with exchanges after their newest summary get a worker and a call; the rest have nothing to
        // fold (asking the host to summarize a stopped agent would write a "not running" notice into the chat).
        const records = sessionId === null ? [] : (await host.readSession(sessionId)).records;
        const due = wanted.filter((id) => summaryInput(records, id).history.length > 0);
        await host.startSet(due);
        const report = await host.summarize(due);
        report.skipped.nothing.push(...wanted.filter((id) => !due.includes(id)));
        return { kind: 'done', report };
      },
      false,
      options.secrets,
    );
    if (!managed.ok) return managed.exit;
    run = managed.value;
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix === undefined ? {} : { fix: error.fix }) });
    return EXIT.coreError;
  }
  if (run.kind === 'unknown') {
    output.note({
      level: 'error',
      code: 'ARGUMENT',
      message: `--agent ${run.ids.join(', ')}: no such agent in this village.`,
      fix: `Name one of: ${run.known.join(', ') || '(the village has no agents)'}.`,
    });
    return EXIT.argumentError;
  }
  const report = run.report;
  output.stdout(options.json ? jsonText(report) : summarizeText(report));
  for (const f of report.skipped.failed) {
    output.note({ level: 'error', code: f.code, message: `The summary call of ${f.agentId} failed; nothing of its history was folded.`, fix: 'See fuseforks.log (summarize failed) and the template, then run the command again.' });
  }
  return report.skipped.failed.length > 0 ? EXIT.coreError : EXIT.ok;
}
