/**
 * The eval case files of a village (`workspace/evals/*.json`), read from disk on every call: the cases that parse,
 * and every file that cannot be used with the field and the fix. A missing folder is no cases, not an error.
 * Nothing here writes: a case file is the person's, and keys this build does not know stay in it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvalCase } from '../../core/evals/evalCase.js';
import { parseEvalCase, type EvalCaseProblem } from '../../core/evals/parseEvalCase.js';

/** The parsed cases (by id) and the files that cannot be used. */
export interface EvalCaseList {
  cases: EvalCase[];
  problems: EvalCaseProblem[];
}

/** `{workspace}/evals`. */
export function evalsDir(workspace: string): string {
  return join(workspace, 'evals');
}

/** The `*.json` file names of `workspace/evals/`, sorted; [] when the folder does not exist. */
export async function evalFileNames(workspace: string): Promise<string[]> {
  try {
    const entries = await readdir(evalsDir(workspace), { withFileTypes: true });
    return entries.filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Reads and parses every case file. */
export async function readEvalCases(workspace: string): Promise<EvalCaseList> {
  const cases: EvalCase[] = [];
  const problems: EvalCaseProblem[] = [];
  for (const name of await evalFileNames(workspace)) {
    let text: string;
    try {
      text = await readFile(join(evalsDir(workspace), name), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      problems.push({ file: `workspace/evals/${name}`, field: '', problem: `cannot be read (${code})`, fix: 'Check that the file is readable by this user.' });
      continue;
    }
    const parsed = parseEvalCase(name, text);
    if (parsed.ok) cases.push(parsed.evalCase);
    else problems.push(parsed.problem);
  }
  return { cases, problems };
}
