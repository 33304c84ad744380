/**
 * `fd {pattern, path?, case_insensitive?=true}`: finds files and folders in the work folder whose name
 * matches a regex. Prints paths relative to the work folder (folders end `/`), at most 100. The walk runs as
 * scanning jobs on the shared pool (scan/), like grep's.
 */
import { stat } from 'node:fs/promises';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir, shownPath } from './confinement.js';
import { compilePattern, interruptedText } from './grep.js';
import type { FdJob, FdOutput } from './scan/scanJob.js';
import { runScanJobs, scanParts } from './scan/scanClient.js';
import { planUnits, splitUnits } from './scan/units.js';
import { capOutput, missingArg, optBool, optString, pick, refuse } from './toolText.js';
import { MAX_WALK_FILES } from './walker.js';

/** Most paths shown; every match is counted. */
export const MAX_FD_RESULTS = 100;

/** The fd jobs' hits as the sequential walk would have listed them: the file cap applied in order. */
export function mergeFd(outputs: FdOutput[], maxFiles: number): { hits: FdOutput['hits']; truncated: boolean } {
  const hits: FdOutput['hits'] = [];
  let offset = 0;
  for (const out of outputs) {
    // A file counts against the cap itself; a folder is listed when it comes before the first file past it.
    for (const hit of out.hits) if (offset + hit.filesBefore < maxFiles + (hit.isDir ? 1 : 0)) hits.push(hit);
    offset += out.files;
  }
  return { hits, truncated: offset > maxFiles };
}

/** The `fd` tool. */
export const fdTool: AgentTool = {
  name: 'fd',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'fd',
      description: pick(
        p.language,
        `作業フォルダ内で名前が正規表現に一致するファイル・フォルダを探します（最大 ${MAX_FD_RESULTS} 件表示、フォルダは末尾 /）。`,
        `Find files and folders in the work folder whose name matches a regular expression (at most ${MAX_FD_RESULTS} shown; folders end with /).`,
      ),
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: ja ? '名前の正規表現' : 'regex matched against each name' },
          path: { type: 'string', description: ja ? '探すフォルダ（作業フォルダからの相対、省略で全体）' : 'folder to search, relative to the work folder (default: all)' },
          case_insensitive: { type: 'boolean', description: ja ? '大文字小文字を区別しない（既定 true）' : 'ignore case (default true)' },
        },
        required: ['pattern'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const pattern = optString(args, 'pattern');
    if (pattern === undefined) return missingArg(lang, 'fd', 'pattern');
    const ignoreCase = optBool(args, 'case_insensitive', true);
    const regex = compilePattern(pattern, ignoreCase, lang);
    if (!(regex instanceof RegExp)) return regex;

    const target = await resolveInWorkDir(ctx.workDir, optString(args, 'path') ?? '', lang);
    if (!target.ok) return refuse(target.refusal);
    if (!(await stat(target.path)).isDirectory()) {
      return refuse(pick(lang, 'fd: path はフォルダを指定してください。', 'fd: `path` must be a folder.'));
    }
    const root = (await resolveInWorkDir(ctx.workDir, '', lang)) as { ok: true; path: string };
    const startRel = shownPath(root.path, target.path);
    const units = await planUnits(target.path, startRel === '.' ? '' : startRel, true, scanParts());
    const jobs: FdJob[] = splitUnits(units, scanParts()).map((part) => ({ kind: 'fd', units: part, pattern, ignoreCase, maxFiles: MAX_WALK_FILES }));
    const ran = await runScanJobs<FdOutput>(ctx, jobs);
    if (ran.kind === 'refused') return ran.reply;
    if (ran.kind === 'interrupted') return refuse(interruptedText(lang));
    const { hits, truncated } = mergeFd(ran.outputs, MAX_WALK_FILES);
    const shown = hits.slice(0, MAX_FD_RESULTS).map((e) => (e.isDir ? `${e.rel}/` : e.rel));
    const lines = [pick(lang, `${hits.length} 件が一致:`, `${hits.length} matches:`), ...shown];
    if (hits.length > MAX_FD_RESULTS) {
      lines.push(pick(lang, `（先頭 ${MAX_FD_RESULTS} 件のみ表示）`, `(first ${MAX_FD_RESULTS} shown; narrow the pattern or path)`));
    }
    if (truncated) lines.push(pick(lang, `（ファイル数が上限 ${MAX_WALK_FILES} に達したため途中までです）`, `(stopped at the ${MAX_WALK_FILES}-file limit)`));
    return capOutput(lines.join('\n'), lang);
  },
};
