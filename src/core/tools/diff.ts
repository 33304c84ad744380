/**
 * `diff {old_path, new_path}`: unified diff of two text files in the work folder (jsdiff). Output beyond
 * the shared cap is cut with a note.
 */
import { createTwoFilesPatch } from 'diff';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir } from './confinement.js';
import { readTextFile, type TextSkip } from './textFile.js';
import { capOutput, missingArg, optString, pick, refuse } from './toolText.js';

function skipText(path: string, skip: TextSkip, ja: boolean): string {
  const why = {
    too_big: ja ? '2 MiB を超えています' : 'is larger than 2 MiB',
    binary: ja ? 'バイナリです' : 'is binary',
    not_file: ja ? 'ファイルではありません' : 'is not a file',
    unreadable: ja ? '読めません' : 'cannot be read',
  }[skip];
  return ja ? `diff: ${path} は${why}。` : `diff: ${path} ${why}.`;
}

/** The `diff` tool. */
export const diffTool: AgentTool = {
  name: 'diff',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'diff',
      description: pick(
        p.language,
        '作業フォルダ内の2つのテキストファイルの差分を unified 形式で出します。',
        'Show the unified diff between two text files in the work folder.',
      ),
      parameters: {
        type: 'object',
        properties: {
          old_path: { type: 'string', description: ja ? '元のファイル（相対パス）' : 'original file, relative path' },
          new_path: { type: 'string', description: ja ? '新しいファイル（相対パス）' : 'new file, relative path' },
        },
        required: ['old_path', 'new_path'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    const ja = lang === 'ja';
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const oldRel = optString(args, 'old_path');
    const newRel = optString(args, 'new_path');
    if (oldRel === undefined || oldRel === '') return missingArg(lang, 'diff', 'old_path');
    if (newRel === undefined || newRel === '') return missingArg(lang, 'diff', 'new_path');

    const texts: string[] = [];
    for (const rel of [oldRel, newRel]) {
      const where = await resolveInWorkDir(ctx.workDir, rel, lang);
      if (!where.ok) return refuse(where.refusal);
      const read = await readTextFile(where.path);
      if (!read.ok) return refuse(skipText(rel, read.skip, ja));
      texts.push(read.text);
    }
    const [oldText, newText] = texts as [string, string];
    if (oldText === newText) return pick(lang, '2つのファイルは同じ内容です。', 'The two files are identical.');
    const patch = createTwoFilesPatch(oldRel, newRel, oldText, newText, undefined, undefined, { context: 3 });
    return capOutput(patch, lang);
  },
};
