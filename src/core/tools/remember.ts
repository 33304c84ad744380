/**
 * `remember {note}`: appends `- {note}` to the agent's own Memory.md, which is part of every later system
 * prompt. Needs no work folder. Rejects empty, over-long and duplicate notes.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { pick, refuse } from './toolText.js';
import { assertSafeIdentifier } from '../world/identifiers.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../privateFiles.js';

/** Longest note, in chars (code points) after trimming and joining lines. */
export const MAX_NOTE_CHARS = 500;

/** Absolute path of an agent's Memory.md under the workspace; UNSAFE_IDENTIFIER for an id that could leave `agents/`. */
export function memoryPath(workspaceDir: string, agentId: string): string {
  assertSafeIdentifier(agentId, 'agent id');
  return join(workspaceDir, 'agents', agentId, 'Memory.md');
}

/** The `remember` tool. */
export const rememberTool: AgentTool = {
  name: 'remember',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    return {
      name: 'remember',
      description: pick(
        p.language,
        `覚えておきたいことを一行で自分の Memory.md に追記します（最大 ${MAX_NOTE_CHARS} 文字、同じ内容は不可）。次のターンから使えます。`,
        `Append one line you want to keep to your own Memory.md (at most ${MAX_NOTE_CHARS} chars, no duplicates). It is part of your later prompts.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          note: { type: 'string', description: pick(p.language, '覚えておく一行', 'the line to remember') },
        },
        required: ['note'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    const raw = args['note'];
    // A note is one bullet line: inner line breaks would split it into lines the prompt cannot attribute.
    const note = typeof raw === 'string' ? raw.replace(/\s*[\r\n]+\s*/g, ' ').trim() : '';
    if (note === '') {
      return refuse(pick(lang, 'remember: `note` が空です。覚える内容を書いてください。', 'remember: `note` is empty; write what to remember.'));
    }
    const chars = [...note].length;
    if (chars > MAX_NOTE_CHARS) {
      return refuse(
        pick(
          lang,
          `remember: メモが長すぎます（${chars} 文字、上限 ${MAX_NOTE_CHARS}）。短くしてください。`,
          `remember: the note is too long (${chars} chars, limit ${MAX_NOTE_CHARS}); shorten it.`,
        ),
      );
    }
    const path = memoryPath(ctx.workspaceDir, ctx.agentId);
    let current = '';
    try {
      current = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const line = `- ${note}`;
    if (current.split(/\r?\n/).some((existing) => existing.trim() === line)) {
      return refuse(pick(lang, 'remember: 同じ内容はすでに覚えています。', 'remember: this note is already in your memory.'));
    }
    await mkdir(join(ctx.workspaceDir, 'agents', ctx.agentId), { recursive: true, mode: PRIVATE_DIR_MODE });
    const lead = current === '' || current.endsWith('\n') ? '' : '\n';
    await appendFile(path, `${lead}${line}\n`, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    return pick(lang, `覚えました（${chars} 文字）。`, `Remembered (${chars} chars).`);
  },
};
