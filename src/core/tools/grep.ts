/**
 * `grep {pattern, path?, case_insensitive?, count_only?, include?, context?}`: regex search over text files
 * in the work folder. Prints `path:line: text` (context lines `path-line- text`), at most 100 lines, while
 * every match is counted. Binary and >2 MiB files are skipped; the walk stops at 20,000 files.
 *
 * The tool checks the pattern and the path here (confinement stays with the tool); the walk and the matching run
 * as scanning jobs on the shared pool (scan/), split so one large search uses every core.
 */
import { stat } from 'node:fs/promises';
import type { Language } from '../world/types.js';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir, shownPath } from './confinement.js';
import { compileSafeRegex, MAX_PATTERN_CHARS } from './safeRegex.js';
import type { GrepJob, GrepOutput, ScanUnit } from './scan/scanJob.js';
import { runScanJobs, scanParts } from './scan/scanClient.js';
import { planUnits, splitUnits } from './scan/units.js';
import { capOutput, clip, missingArg, optBool, optString, pick, refuse } from './toolText.js';
import { MAX_WALK_FILES } from './walker.js';

export { searchText, wholeTextPrefilter } from './scan/searchText.js';
export { MAX_PATTERN_CHARS } from './safeRegex.js';

/** Most result lines shown (matches and context together). */
export const MAX_GREP_LINES = 100;
/** Longest shown line, in chars, `…` included. */
export const MAX_LINE_CHARS = 240;

/** Compiles a model-given regex (bounded-time engine, safeRegex.ts), or returns the refusal text. */
export function compilePattern(pattern: string, caseInsensitive: boolean, language: Language): RegExp | ToolReply {
  const compiled = compileSafeRegex(pattern, caseInsensitive ? 'i' : '');
  if (compiled.ok) return compiled.regex;
  switch (compiled.why) {
    case 'too_long':
      return refuse(pick(language, `パターンが長すぎます（上限 ${MAX_PATTERN_CHARS} 文字）。`, `The pattern is too long (limit ${MAX_PATTERN_CHARS} chars).`));
    case 'syntax':
      return refuse(pick(language, `正規表現として読めません: ${compiled.detail}`, `Not a valid regular expression: ${compiled.detail}`));
    case 'not_linear':
      return refuse(
        pick(
          language,
          '後方参照・先読み/後読み・非常に大きな回数指定 {n} は使えません（検索が止まらなくなることがあるため）。それらを使わない形に書き換えてください。',
          'Backreferences, lookarounds and very large counted repeats {n} are not supported (they can make a search run for ever); rewrite the pattern without them.',
        ),
      );
  }
}

/** What a search answers when the turn was interrupted while it ran (the pool job was cancelled). */
export function interruptedText(language: Language): string {
  return pick(language, '（中断されたため検索を止めました）', '(interrupted: the search was stopped)');
}

/** The grep jobs' outputs as the sequential walk would have seen them: the 20,000-file cap applied in order. */
export function mergeGrep(outputs: GrepOutput[], maxFiles: number): { hits: GrepOutput['hits']; skipped: number; truncated: boolean } {
  const hits: GrepOutput['hits'] = [];
  let skipped = 0;
  let offset = 0;
  for (const out of outputs) {
    for (const hit of out.hits) if (offset + hit.at < maxFiles) hits.push(hit);
    skipped += out.skipped.filter((at) => offset + at < maxFiles).length;
    offset += out.files;
  }
  return { hits, skipped, truncated: offset > maxFiles };
}

/** The `grep` tool. */
export const grepTool: AgentTool = {
  name: 'grep',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'grep',
      description: pick(
        p.language,
        `作業フォルダ内のテキストファイルを正規表現で検索します。結果は \`パス:行: 内容\`（最大 ${MAX_GREP_LINES} 行、件数は全数）。隠しファイル・node_modules 等・バイナリ・2 MiB 超は対象外。`,
        `Search text files in the work folder with a regular expression. Prints \`path:line: text\` (at most ${MAX_GREP_LINES} lines; all matches are counted). Skips dot-entries, node_modules and similar, binary files and files over 2 MiB.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: ja ? '正規表現（JavaScript）' : 'regular expression (JavaScript syntax)' },
          path: { type: 'string', description: ja ? '検索するファイルかフォルダ（作業フォルダからの相対、省略で全体）' : 'file or folder to search, relative to the work folder (default: all)' },
          case_insensitive: { type: 'boolean', description: ja ? '大文字小文字を区別しない' : 'ignore case (default false)' },
          count_only: { type: 'boolean', description: ja ? 'ファイルごとの件数だけ出す' : 'print only match counts per file' },
          include: { type: 'string', description: ja ? 'ファイル名の正規表現（例 \\.ts$）' : 'regex on file names to search (e.g. \\.ts$)' },
          context: { type: 'integer', minimum: 0, maximum: 3, description: ja ? '前後の行数 0〜3' : 'lines of context around each match, 0-3' },
        },
        required: ['pattern'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const pattern = optString(args, 'pattern');
    if (pattern === undefined || pattern === '') return missingArg(lang, 'grep', 'pattern');
    const ignoreCase = optBool(args, 'case_insensitive', false);
    const regex = compilePattern(pattern, ignoreCase, lang);
    if (!(regex instanceof RegExp)) return regex;
    const includeText = optString(args, 'include');
    const include = includeText === undefined || includeText === '' ? null : includeText;
    if (include !== null) {
      const check = compilePattern(include, false, lang);
      if (!(check instanceof RegExp)) return check;
    }
    const rawContext = Number(args['context'] ?? 0);
    const context = Number.isFinite(rawContext) ? Math.min(3, Math.max(0, Math.trunc(rawContext))) : 0;
    const countOnly = optBool(args, 'count_only', false);

    const target = await resolveInWorkDir(ctx.workDir, optString(args, 'path') ?? '', lang);
    if (!target.ok) return refuse(target.refusal);
    const root = (await resolveInWorkDir(ctx.workDir, '', lang)) as { ok: true; path: string };
    const startRel = shownPath(root.path, target.path);

    const units: ScanUnit[] = (await stat(target.path)).isFile()
      ? [{ kind: 'file', abs: target.path, rel: startRel }]
      : await planUnits(target.path, startRel === '.' ? '' : startRel, false, scanParts());
    const jobs: GrepJob[] = splitUnits(units, scanParts()).map((part) => ({
      kind: 'grep', units: part, pattern, ignoreCase, include, context, countOnly, maxFiles: MAX_WALK_FILES,
    }));
    const ran = await runScanJobs<GrepOutput>(ctx, jobs);
    if (ran.kind === 'refused') return ran.reply;
    if (ran.kind === 'interrupted') return refuse(interruptedText(lang));
    const { hits, skipped, truncated } = mergeGrep(ran.outputs, MAX_WALK_FILES);

    let total = 0;
    const shown: string[] = [];
    let hiddenLines = 0;
    for (const result of hits) {
      total += result.count;
      const rows = countOnly
        ? [`${result.rel}: ${result.count}`]
        : result.lines.map((l) => `${result.rel}${l.match ? ':' : '-'}${l.line}${l.match ? ':' : '-'} ${clip(l.text, MAX_LINE_CHARS)}`);
      for (const row of rows) {
        if (shown.length < MAX_GREP_LINES) shown.push(row);
        else hiddenLines += 1;
      }
    }

    const head = pick(lang, `${hits.length} ファイルで ${total} 件一致`, `${total} matches in ${hits.length} files`);
    const notes: string[] = [];
    if (hiddenLines > 0) notes.push(pick(lang, `（先頭 ${MAX_GREP_LINES} 行のみ表示、残り ${hiddenLines} 行は省略。path や include で絞ってください）`, `(first ${MAX_GREP_LINES} lines shown, ${hiddenLines} more hidden; narrow with path or include)`));
    if (truncated) notes.push(pick(lang, `（ファイル数が上限 ${MAX_WALK_FILES} に達したため途中までです）`, `(stopped at the ${MAX_WALK_FILES}-file limit; search a subfolder)`));
    if (skipped > 0) notes.push(pick(lang, `（バイナリ・2 MiB 超・読めないファイル ${skipped} 件は対象外）`, `(${skipped} binary, over-2-MiB or unreadable files skipped)`));
    const body = [head + (shown.length > 0 ? ':' : ''), ...shown, ...notes].join('\n');
    return capOutput(body, lang);
  },
};
