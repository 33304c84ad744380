/**
 * `grep {pattern, path?, case_insensitive?, count_only?, include?, context?}`: regex search over text files
 * in the work folder. Prints `path:line: text` (context lines `path-line- text`), at most 100 lines, while
 * every match is counted. Binary and >2 MiB files are skipped; the walk stops at 20,000 files.
 */
import { stat } from 'node:fs/promises';
import type { Language } from '../world/types.js';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir, shownPath } from './confinement.js';
import { readTextFileSync } from './textFile.js';
import { capOutput, clip, missingArg, optBool, optString, pick, refuse } from './toolText.js';
import { MAX_WALK_FILES, walk, type WalkEntry } from './walker.js';

/** Most result lines shown (matches and context together). */
export const MAX_GREP_LINES = 100;
/** Longest shown line, in chars, `…` included. */
export const MAX_LINE_CHARS = 240;
/** Longest accepted pattern, in chars (a guard against pathological regexes pasted by a model). */
export const MAX_PATTERN_CHARS = 1_000;
/** Files read between two event-loop yields (keeps each blocking stretch to a few ms on small files). */
const READ_BATCH = 128;

/** One line to show: `match` lines use `:`, context lines `-`. */
export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

/**
 * A whole-text regex that matches whenever some line would (a superset), so files without a hit skip the
 * line split. Sound because with the `m` flag `^`/`$` match at line breaks, `.` never crosses one and
 * `\b` sees the same non-word char; lookarounds could see across a line, so they get no prefilter (null).
 * Only used on text without `\r` (a per-line `$` matches before a stripped `\r`, the whole text does not).
 */
export function wholeTextPrefilter(regex: RegExp): RegExp | null {
  if (/\(\?(?:=|!|<=|<!)/.test(regex.source)) return null;
  return new RegExp(regex.source, `${regex.flags.replace('m', '')}m`);
}

/** Lines of `text` that match `regex`, with up to `context` lines around each (overlaps merged). */
export function searchText(
  text: string,
  regex: RegExp,
  context: number,
  prefilter: RegExp | null = null,
): { count: number; lines: GrepLine[] } {
  if (prefilter !== null && !text.includes('\r') && !prefilter.test(text)) return { count: 0, lines: [] };
  const all = text.split('\n');
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  const hits: number[] = [];
  for (let i = 0; i < all.length; i += 1) {
    const line = (all[i] as string).endsWith('\r') ? (all[i] as string).slice(0, -1) : (all[i] as string);
    all[i] = line;
    if (regex.test(line)) hits.push(i);
  }
  if (hits.length === 0) return { count: 0, lines: [] };
  const out: GrepLine[] = [];
  const hitSet = new Set(hits);
  let next = 0; // first line index not yet emitted
  for (const hit of hits) {
    const from = Math.max(next, hit - context);
    const to = Math.min(all.length - 1, hit + context);
    for (let i = from; i <= to; i += 1) out.push({ line: i + 1, text: all[i] as string, match: hitSet.has(i) });
    next = Math.max(next, to + 1);
  }
  return { count: hits.length, lines: out };
}

/** Compiles a model-given regex, or returns the refusal text. */
export function compilePattern(pattern: string, caseInsensitive: boolean, language: Language): RegExp | ToolReply {
  if (pattern.length > MAX_PATTERN_CHARS) {
    return refuse(pick(language, `パターンが長すぎます（上限 ${MAX_PATTERN_CHARS} 文字）。`, `The pattern is too long (limit ${MAX_PATTERN_CHARS} chars).`));
  }
  try {
    return new RegExp(pattern, caseInsensitive ? 'i' : '');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refuse(pick(language, `正規表現として読めません: ${why}`, `Not a valid regular expression: ${why}`));
  }
}

/**
 * Maps `fn` over `items` synchronously in batches of `batch`, yielding to the event loop between batches
 * so an abort can land; stops early (null for the rest) once `signal` is aborted.
 */
async function mapInBatches<T, R>(items: readonly T[], batch: number, signal: AbortSignal, fn: (item: T) => R): Promise<Array<R | null>> {
  const out: Array<R | null> = [];
  for (let start = 0; start < items.length; start += batch) {
    if (signal.aborted) break;
    for (const item of items.slice(start, start + batch)) out.push(fn(item));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
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
    const regex = compilePattern(pattern, optBool(args, 'case_insensitive', false), lang);
    if (!(regex instanceof RegExp)) return regex;
    const includeText = optString(args, 'include');
    const include = includeText === undefined || includeText === '' ? null : compilePattern(includeText, false, lang);
    if (include !== null && !(include instanceof RegExp)) return include;
    const rawContext = Number(args['context'] ?? 0);
    const context = Number.isFinite(rawContext) ? Math.min(3, Math.max(0, Math.trunc(rawContext))) : 0;
    const countOnly = optBool(args, 'count_only', false);

    const target = await resolveInWorkDir(ctx.workDir, optString(args, 'path') ?? '', lang);
    if (!target.ok) return refuse(target.refusal);
    const root = (await resolveInWorkDir(ctx.workDir, '', lang)) as { ok: true; path: string };
    const startRel = shownPath(root.path, target.path);

    let files: WalkEntry[];
    let truncated = false;
    let aborted = false;
    if ((await stat(target.path)).isFile()) {
      files = [{ abs: target.path, rel: startRel, isDir: false }];
    } else {
      const walked = await walk({ start: target.path, startRel: startRel === '.' ? '' : startRel, signal: ctx.signal, includeDirs: false });
      files = walked.entries;
      truncated = walked.truncated;
      aborted = walked.aborted;
    }
    if (include instanceof RegExp) files = files.filter((f) => include.test(f.rel.slice(f.rel.lastIndexOf('/') + 1)));

    const prefilter = wholeTextPrefilter(regex);
    let skipped = 0;
    const results = await mapInBatches(files, READ_BATCH, ctx.signal, (file) => {
      const read = readTextFileSync(file.abs);
      if (!read.ok) {
        skipped += 1;
        return null;
      }
      const found = searchText(read.text, regex, countOnly ? 0 : context, prefilter);
      return found.count === 0 ? null : { rel: file.rel, ...found };
    });
    if (ctx.signal.aborted) aborted = true;

    let total = 0;
    let matchedFiles = 0;
    const shown: string[] = [];
    let hiddenLines = 0;
    for (const result of results) {
      if (result === null) continue;
      total += result.count;
      matchedFiles += 1;
      const rows = countOnly
        ? [`${result.rel}: ${result.count}`]
        : result.lines.map((l) => `${result.rel}${l.match ? ':' : '-'}${l.line}${l.match ? ':' : '-'} ${clip(l.text, MAX_LINE_CHARS)}`);
      for (const row of rows) {
        if (shown.length < MAX_GREP_LINES) shown.push(row);
        else hiddenLines += 1;
      }
    }

    const head = pick(lang, `${matchedFiles} ファイルで ${total} 件一致`, `${total} matches in ${matchedFiles} files`);
    const notes: string[] = [];
    if (hiddenLines > 0) notes.push(pick(lang, `（先頭 ${MAX_GREP_LINES} 行のみ表示、残り ${hiddenLines} 行は省略。path や include で絞ってください）`, `(first ${MAX_GREP_LINES} lines shown, ${hiddenLines} more hidden; narrow with path or include)`));
    if (truncated) notes.push(pick(lang, `（ファイル数が上限 ${MAX_WALK_FILES} に達したため途中までです）`, `(stopped at the ${MAX_WALK_FILES}-file limit; search a subfolder)`));
    if (skipped > 0) notes.push(pick(lang, `（バイナリ・2 MiB 超・読めないファイル ${skipped} 件は対象外）`, `(${skipped} binary, over-2-MiB or unreadable files skipped)`));
    if (aborted) notes.push(pick(lang, '（中断されたため途中までの結果です）', '(interrupted: partial results)'));
    const body = [head + (shown.length > 0 ? ':' : ''), ...shown, ...notes].join('\n');
    return capOutput(body, lang);
  },
};
