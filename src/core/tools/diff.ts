/**
 * `diff {old_path, new_path}`: unified diff of two text files in the work folder (jsdiff, run as a scanning job
 * on the shared pool: a diff of two large files is the CPU-heavy kind of work). Output beyond the shared cap is
 * cut with a note.
 */
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir } from './confinement.js';
import { interruptedText } from './grep.js';
import type { DiffOutput } from './scan/scanJob.js';
import { runScanJobs } from './scan/scanClient.js';
import type { TextSkip } from './textFile.js';
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

    const paths: string[] = [];
    for (const rel of [oldRel, newRel]) {
      const where = await resolveInWorkDir(ctx.workDir, rel, lang);
      if (!where.ok) return refuse(where.refusal);
      paths.push(where.path);
    }
    const [oldAbs, newAbs] = paths as [string, string];
    const ran = await runScanJobs<DiffOutput>(ctx, [{ kind: 'diff', oldAbs, newAbs, oldRel, newRel }]);
    if (ran.kind === 'refused') return ran.reply;
    if (ran.kind === 'interrupted') return refuse(interruptedText(lang));
    const out = ran.outputs[0] as DiffOutput;
    if (out.outcome === 'skipped') return refuse(skipText(out.which === 'old' ? oldRel : newRel, out.skip, ja));
    if (out.outcome === 'identical') return pick(lang, '2つのファイルは同じ内容です。', 'The two files are identical.');
    const patch = out.patch;
    return capOutput(patch, lang);
  },
};
