/**
 * `sd {path | paths[≤20], pattern, replacement, apply?, case_insensitive?}`: regex replace in existing files of
 * the work folder. Without `apply: true` it only shows the unified diff; `apply` writes one file (`path`), and
 * `paths` is preview only. It never creates a file, and a diff over 12,000 chars is refused, never cut.
 */
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir, shownPath } from './confinement.js';
import { diffTooLong, MAX_DIFF_CHARS, readEditable, unifiedDiff, writeEdited, type EditableFile } from './editPreview.js';
import { compileSearch, parseReplacement, replaceAllMatches } from './sdMatch.js';
import { missingArg, optBool, optString, pick, refuse } from './toolText.js';

/** Most files one preview may cover. */
export const MAX_SD_PATHS = 20;

/** The files named by `path` or `paths`, or the refusal. */
function targetsOf(args: Record<string, unknown>, apply: boolean, ctx: ToolContext): string[] | ToolReply {
  const lang = ctx.language;
  const path = optString(args, 'path');
  const paths = args['paths'];
  if (path !== undefined && paths !== undefined) {
    return refuse(pick(lang, 'sd: path と paths はどちらか一方だけにしてください。', 'sd: give either `path` or `paths`, not both.'));
  }
  if (paths !== undefined) {
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string' && p !== '')) {
      return refuse(pick(lang, 'sd: paths は空でない文字列の配列です。', 'sd: `paths` must be a non-empty array of strings.'));
    }
    if (paths.length > MAX_SD_PATHS) {
      return refuse(pick(lang, `sd: paths は ${MAX_SD_PATHS} 件までです（${paths.length} 件）。`, `sd: at most ${MAX_SD_PATHS} paths (got ${paths.length}).`));
    }
    if (apply) {
      return refuse(
        pick(
          lang,
          'sd: paths はプレビュー専用です。適用は path で 1 ファイルずつ行ってください。',
          'sd: `paths` is preview only; apply one file at a time with `path`.',
        ),
      );
    }
    return [...new Set(paths as string[])];
  }
  if (path === undefined || path === '') return missingArg(lang, 'sd', 'path');
  return [path];
}

/** The `sd` tool. */
export const sdTool: AgentTool = {
  name: 'sd',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'sd',
      description: pick(
        p.language,
        `作業フォルダ内の既存ファイルを正規表現で置換します。apply: true が無ければ差分を見せるだけで何も書きません。適用は path で 1 ファイルずつ（paths は最大 ${MAX_SD_PATHS} 件のプレビュー専用）。置換文字列の $1・$name はグループ、$$ は $。差分が ${MAX_DIFF_CHARS} 文字を超える変更は断られます。新しいファイルは作りません。`,
        `Regex find-and-replace in existing files of the work folder. Without apply: true it only shows the diff and writes nothing. Apply works on one file (path); paths (up to ${MAX_SD_PATHS}) is preview only. In the replacement, $1 and $name are groups and $$ is a literal $. A change whose diff exceeds ${MAX_DIFF_CHARS} chars is refused. Never creates files.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: ja ? '対象ファイル（作業フォルダからの相対）' : 'file to change, relative to the work folder' },
          paths: {
            type: 'array',
            items: { type: 'string' },
            maxItems: MAX_SD_PATHS,
            description: ja ? `複数ファイルのプレビュー（最大 ${MAX_SD_PATHS}）` : `several files to preview (at most ${MAX_SD_PATHS})`,
          },
          pattern: { type: 'string', description: ja ? '正規表現（JavaScript）' : 'regular expression (JavaScript syntax)' },
          replacement: { type: 'string', description: ja ? '置換文字列（$1・$name・$$）' : 'replacement ($1, $name, $$)' },
          case_insensitive: { type: 'boolean', description: ja ? '大文字小文字を区別しない' : 'ignore case (default false)' },
          apply: { type: 'boolean', description: ja ? 'true で書き込む（既定はプレビュー）' : 'true writes the change (default: preview only)' },
        },
        required: ['pattern', 'replacement'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const pattern = optString(args, 'pattern');
    if (pattern === undefined || pattern === '') return missingArg(lang, 'sd', 'pattern');
    const replacement = optString(args, 'replacement');
    if (replacement === undefined) return missingArg(lang, 'sd', 'replacement');
    const apply = optBool(args, 'apply', false);
    const targets = targetsOf(args, apply, ctx);
    if (!Array.isArray(targets)) return targets;
    const search = compileSearch(pattern, optBool(args, 'case_insensitive', false), lang);
    if (!('regex' in search)) return search;
    const parts = parseReplacement(replacement, search, lang);
    if (!Array.isArray(parts)) return parts;
    const root = await resolveInWorkDir(ctx.workDir, '', lang);
    if (!root.ok) return refuse(root.refusal);

    const changes: Array<{ file: EditableFile; after: string; count: number }> = [];
    const seen = new Set<string>();
    for (const rel of targets) {
      const where = await resolveInWorkDir(ctx.workDir, rel, lang);
      if (!where.ok) return refuse(where.refusal);
      if (seen.has(where.path)) continue;
      seen.add(where.path);
      const file = await readEditable(where.path, shownPath(root.path, where.path), 'sd', lang);
      if (!('text' in file)) return file;
      const replaced = replaceAllMatches(file.text, search, parts);
      if (replaced.count > 0 && replaced.text !== file.text) changes.push({ file, after: replaced.text, count: replaced.count });
    }
    if (changes.length === 0) {
      return pick(lang, 'sd: 一致する箇所がないか、置換しても内容が変わりません。何も変えていません。', 'sd: no match, or the replacement changes nothing; nothing was changed.');
    }

    const diff = changes.map((c) => unifiedDiff(c.file.shown, c.file.text, c.after)).join('');
    if (diff.length > MAX_DIFF_CHARS) return diffTooLong('sd', diff.length, lang);
    const count = changes.reduce((n, c) => n + c.count, 0);
    if (!apply) {
      const head = pick(
        lang,
        `プレビュー（未適用）: ${changes.length} ファイルで ${count} 箇所を置換します。書き込むには path を 1 つにして apply: true で呼んでください。`,
        `Preview (not applied): ${count} replacements in ${changes.length} file(s). To write it, call again with one path and apply: true.`,
      );
      return `${head}\n${diff}`;
    }
    const change = changes[0]!;
    const failed = await writeEdited(change.file, change.after, 'sd', lang);
    if (failed !== null) return failed;
    return `${pick(lang, `適用しました: ${change.file.shown} の ${count} 箇所。`, `Applied: ${count} replacements in ${change.file.shown}.`)}\n${diff}`;
  },
};
