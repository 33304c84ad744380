/**
 * `blackboard {op: post|list|read, title?, body?, name?}`: notes that agents sharing a work folder leave for each
 * other in `blackboard/` (see core/blackboard/board.ts). Needs a work folder; posts are authored by the calling
 * agent and timestamped; nothing here reaches the room log or another agent's prompt.
 */
import { join } from 'node:path';
import { BLACKBOARD_DIR, ensureBoard, isSafeNoteName, listNotes, MAX_BODY_CHARS, MAX_TITLE_CHARS, parseNote, postNote, readNote } from '../blackboard/board.js';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveCreatable, resolveInWorkDir } from './confinement.js';
import { capOutput, clip, missingArg, optString, pick, refuse } from './toolText.js';

/** The ops `blackboard` accepts. */
export const BLACKBOARD_OPS = ['post', 'list', 'read'] as const;
/** Most notes `list` shows (newest). */
export const MAX_LISTED_NOTES = 100;

/** The board folder of this work folder (created for a post), or the refusal. */
async function boardOf(ctx: ToolContext, create: boolean): Promise<{ path: string } | ToolReply> {
  const lang = ctx.language;
  const existing = await resolveInWorkDir(ctx.workDir, BLACKBOARD_DIR, lang);
  if (existing.ok) return { path: existing.path };
  if (!create) return { path: '' };
  const creatable = await resolveCreatable(ctx.workDir, BLACKBOARD_DIR, lang);
  if (!creatable.ok) return refuse(creatable.refusal);
  try {
    await ensureBoard(creatable.path);
  } catch (error) {
    return refuse(pick(lang, `blackboard: ${BLACKBOARD_DIR}/ を用意できません（${String(error)}）。`, `blackboard: cannot prepare ${BLACKBOARD_DIR}/ (${String(error)}).`));
  }
  return { path: join(creatable.path) };
}

/** The `blackboard` tool. */
export const blackboardTool: AgentTool = {
  name: 'blackboard',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'blackboard',
      description: pick(
        p.language,
        `作業フォルダを共有する仲間との黒板（${BLACKBOARD_DIR}/ の Markdown ノート）。post: 題と本文を新しいノートとして残す（あなたの名前と時刻つき、ほかのノートは変えない）/ list: ノートの一覧 / read: name のノートを読む。`,
        `The blackboard shared with the agents of your work folder (Markdown notes in ${BLACKBOARD_DIR}/). post: leave a new note with a title and body (signed with your id and the time; other notes are never changed) / list: the notes / read: one note by name.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: [...BLACKBOARD_OPS], description: ja ? '操作' : 'operation' },
          title: { type: 'string', description: ja ? `post の題（${MAX_TITLE_CHARS} 文字まで、1 行）` : `title for post (one line, up to ${MAX_TITLE_CHARS} chars)` },
          body: { type: 'string', description: ja ? `post の本文（Markdown、${MAX_BODY_CHARS} 文字まで）` : `body for post (Markdown, up to ${MAX_BODY_CHARS} chars)` },
          name: { type: 'string', description: ja ? 'read するノートのファイル名（list に出る名前）' : 'file name of the note to read (as list shows it)' },
        },
        required: ['op'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const op = optString(args, 'op');
    if (op === undefined || !(BLACKBOARD_OPS as readonly string[]).includes(op)) {
      return refuse(pick(lang, 'blackboard: op は post / list / read のどれかです。', 'blackboard: `op` must be one of post, list, read.'));
    }
    if (op === 'post') {
      const title = (optString(args, 'title') ?? '').replace(/\s+/g, ' ').trim();
      const body = optString(args, 'body') ?? '';
      if (title === '') return missingArg(lang, 'blackboard', 'title');
      if (title.length > MAX_TITLE_CHARS || body.length > MAX_BODY_CHARS) {
        return refuse(pick(lang, `blackboard: 題は ${MAX_TITLE_CHARS} 文字、本文は ${MAX_BODY_CHARS} 文字までです。`, `blackboard: the title may have ${MAX_TITLE_CHARS} chars and the body ${MAX_BODY_CHARS}.`));
      }
      const board = await boardOf(ctx, true);
      if ('body' in board) return board;
      const name = await postNote(board.path, ctx.agentId, ctx.agentName ?? ctx.agentId, title, body, Date.now());
      return pick(lang, `黒板に書きました: ${BLACKBOARD_DIR}/${name}`, `Posted to the blackboard: ${BLACKBOARD_DIR}/${name}`);
    }
    const board = await boardOf(ctx, false);
    if ('body' in board) return board;
    if (op === 'list') {
      const notes = board.path === '' ? [] : await listNotes(board.path);
      if (notes.length === 0) return pick(lang, '黒板にノートはありません。', 'The blackboard has no notes.');
      const shown = notes.slice(-MAX_LISTED_NOTES);
      const lines = shown.map((n) => {
        const when = new Date(n.postedAtMs ?? n.modifiedMs).toISOString().replace(/\.\d+Z$/, 'Z');
        return `- ${n.name} · ${n.author ?? pick(lang, '（人）', '(person)')} · ${when} · ${clip(n.title, 80)} (${n.chars} ${pick(lang, '文字', 'chars')})`;
      });
      const more = notes.length > shown.length ? pick(lang, `\n（古い ${notes.length - shown.length} 件は省略）`, `\n(${notes.length - shown.length} older notes not shown)`) : '';
      return capOutput(`${pick(lang, `黒板のノート ${notes.length} 件（古い順）:`, `${notes.length} notes on the blackboard, oldest first:`)}\n${lines.join('\n')}${more}`, lang);
    }
    const name = optString(args, 'name');
    if (name === undefined || name === '') return missingArg(lang, 'blackboard', 'name');
    if (!isSafeNoteName(name)) return refuse(pick(lang, 'blackboard: name は list に出るファイル名（.md）です。', 'blackboard: `name` is a file name as list shows it (ending in .md).'));
    const text = board.path === '' ? null : await readNote(board.path, name);
    if (text === null) return refuse(pick(lang, `blackboard: ノート ${name} はありません。`, `blackboard: there is no note ${name}.`));
    const note = parseNote(text);
    const head = note.author === null ? name : `${name} · ${note.authorName ?? note.author} (${note.author}) · ${note.postedAtMs === null ? '' : new Date(note.postedAtMs).toISOString()}`;
    return capOutput(`${head}\n${note.title === null ? '' : `# ${note.title}\n`}${note.body}`, lang);
  },
};
