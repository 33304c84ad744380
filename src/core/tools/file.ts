/**
 * `file {op, path, content?, to?, overwrite?}`: the only tool that creates or changes files in the work
 * folder. ops: read | write | append | mkdir | move | copy | remove (remove = move to the trash folder).
 */
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isInside, noWorkDirText, resolveCreatable, resolveInWorkDir, shownPath, type Confined } from './confinement.js';
import { mkdirOp, moveOrCopyOp, readOp, removeOp, TRASH_DIR_NAME, writeOp } from './fileOps.js';
import { MAX_OUTPUT_CHARS, missingArg, optBool, optString, pick, refuse } from './toolText.js';

/** The ops `file` accepts. */
export const FILE_OPS = ['read', 'write', 'append', 'mkdir', 'move', 'copy', 'remove'] as const;
export type FileOp = (typeof FILE_OPS)[number];

/** The real path of the village's data dir (the parent of `{dataDir}/workspace`). */
function realDataDir(workspaceDir: string): string {
  const dataDir = dirname(resolve(workspaceDir));
  try {
    return realpathSync(dataDir);
  } catch {
    return dataDir;
  }
}

/**
 * When the work folder holds the data dir (a work folder of `$HOME`, say), refuses a resolved path inside the data
 * dir (else an agent could rewrite its own run.json, mcp.json or world.json) and, for `holds`, one that holds the data
 * dir (moving or removing it). A work folder inside the data dir is the person's own choice and is not narrowed here.
 */
function dataDirGuard(where: Confined, root: string, dataDir: string, rel: string, lang: 'ja' | 'en', holds: boolean): Confined {
  if (!where.ok || !isInside(root, dataDir)) return where;
  if (!isInside(dataDir, where.path) && !(holds && isInside(where.path, dataDir))) return where;
  return {
    ok: false,
    refusal: pick(
      lang,
      `${rel} は村のデータフォルダ（設定・会話・鍵の置き場）の中か、それを含みます。ここには触れられません。`,
      `${rel} is inside the village's data dir (its settings, conversations and keys) or holds it; the file tool never touches it.`,
    ),
  };
}

/** The `file` tool. */
export const fileTool: AgentTool = {
  name: 'file',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'file',
      description: pick(
        p.language,
        `作業フォルダ内のファイル操作。read（最大 ${MAX_OUTPUT_CHARS} 文字）/ write（2 MiB まで、既存は overwrite: true が必要）/ append / mkdir / move / copy / remove（${TRASH_DIR_NAME} へ移動）。パスは作業フォルダからの相対。`,
        `File operations in the work folder: read (at most ${MAX_OUTPUT_CHARS} chars) / write (up to 2 MiB; an existing file needs overwrite: true) / append / mkdir / move / copy / remove (moves to ${TRASH_DIR_NAME}). Paths are relative to the work folder.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: [...FILE_OPS], description: ja ? '操作' : 'operation' },
          path: { type: 'string', description: ja ? '対象のパス（相対）' : 'target path, relative' },
          content: { type: 'string', description: ja ? 'write / append の内容' : 'text for write / append' },
          to: { type: 'string', description: ja ? 'move / copy の行き先（相対）' : 'destination for move / copy, relative' },
          overwrite: { type: 'boolean', description: ja ? '既存ファイルを置き換える' : 'replace an existing file' },
        },
        required: ['op', 'path'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const op = optString(args, 'op');
    if (op === undefined || !(FILE_OPS as readonly string[]).includes(op)) {
      return refuse(pick(lang, `file: op は ${FILE_OPS.join(' / ')} のどれかです。`, `file: \`op\` must be one of ${FILE_OPS.join(', ')}.`));
    }
    const rel = optString(args, 'path');
    if (rel === undefined || rel === '') return missingArg(lang, 'file', 'path');
    const root = await resolveInWorkDir(ctx.workDir, '', lang);
    if (!root.ok) return refuse(root.refusal);
    const overwrite = optBool(args, 'overwrite', false);
    const dataDir = realDataDir(ctx.workspaceDir);
    const guard = (where: Confined, shown: string, holds = false): Confined => dataDirGuard(where, root.path, dataDir, shown, lang, holds);

    switch (op as FileOp) {
      case 'read':
      case 'remove': {
        const where = guard(await resolveInWorkDir(ctx.workDir, rel, lang), rel, op === 'remove');
        if (!where.ok) return refuse(where.refusal);
        const shown = shownPath(root.path, where.path);
        return op === 'read' ? readOp(where.path, shown, lang) : removeOp(root.path, where.path, shown, lang, Date.now());
      }
      case 'write':
      case 'append': {
        const content = optString(args, 'content');
        if (content === undefined) return missingArg(lang, 'file', 'content');
        const where = guard(await resolveCreatable(ctx.workDir, rel, lang), rel);
        if (!where.ok) return refuse(where.refusal);
        return writeOp(where.path, shownPath(root.path, where.path), content, op as 'write' | 'append', overwrite, lang);
      }
      case 'mkdir': {
        const where = guard(await resolveCreatable(ctx.workDir, rel, lang), rel);
        if (!where.ok) return refuse(where.refusal);
        return mkdirOp(where.path, shownPath(root.path, where.path), lang);
      }
      case 'move':
      case 'copy': {
        const toRel = optString(args, 'to');
        if (toRel === undefined || toRel === '') return missingArg(lang, 'file', 'to');
        const from = guard(await resolveInWorkDir(ctx.workDir, rel, lang), rel, op === 'move');
        if (!from.ok) return refuse(from.refusal);
        if (from.path === root.path) {
          return refuse(pick(lang, '作業フォルダそのものは移せません。', 'The work folder itself cannot be moved or copied.'));
        }
        const to = guard(await resolveCreatable(ctx.workDir, toRel, lang), toRel);
        if (!to.ok) return refuse(to.refusal);
        const shown = { from: shownPath(root.path, from.path), to: shownPath(root.path, to.path) };
        return moveOrCopyOp(from.path, to.path, shown, op as 'move' | 'copy', overwrite, lang);
      }
    }
  },
};
