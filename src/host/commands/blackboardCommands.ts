/**
 * What a person may do with the blackboards (the GUI's read-only panel): list the notes of every current agent's
 * work folder, delete one note, or clear a board. Deleting never destroys: the note moves to that work folder's
 * `.fuseforks-trash/`, as the `file` tool's remove does. The GUI never writes a note.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { BLACKBOARD_DIR, isSafeNoteName, listNotes, MAX_GUI_NOTE_CHARS } from '../../core/blackboard/board.js';
import { removeOp } from '../../core/tools/fileOps.js';
import type { World } from '../../core/world/types.js';
import type { BlackboardView } from '../../core/blackboard/boardView.js';
import type { BlackboardApi } from '../hostApi.js';
import { blackboardDeleteFailed } from '../../core/errors/hostErrors.js';

export type { BlackboardNoteView, BlackboardView } from '../../core/blackboard/boardView.js';

/** The failure of a delete or clear, naming the note or folder and what to do (the factory is in the catalogue). */
export { blackboardDeleteFailed };

/** Distinct work folders of the current agents, with who uses each (in agent order). */
export function boardFolders(world: World): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of world.agents) {
    if (a.workDir === null || a.workDir.trim() === '') continue;
    out.set(a.workDir, [...(out.get(a.workDir) ?? []), a.id]);
  }
  return out;
}

/** Every board with its notes, oldest first. A work folder without `blackboard/` shows an empty board. */
export async function listBlackboards(world: World): Promise<BlackboardView[]> {
  const views: BlackboardView[] = [];
  for (const [dir, agents] of boardFolders(world)) {
    const notes = await listNotes(join(dir, BLACKBOARD_DIR));
    views.push({
      dir,
      agents,
      notes: notes.map((n) => ({
        name: n.name,
        author: n.author,
        authorName: n.authorName,
        postedAtMs: n.postedAtMs,
        modifiedMs: n.modifiedMs,
        title: n.title,
        content: n.text.length > MAX_GUI_NOTE_CHARS ? n.text.slice(0, MAX_GUI_NOTE_CHARS) : n.text,
        truncated: n.text.length > MAX_GUI_NOTE_CHARS,
      })),
    });
  }
  return views;
}

/** The real board folder of `dir`, only if `dir` is a current agent's work folder. */
async function boardOf(world: World, dir: string): Promise<{ root: string; board: string }> {
  if (!boardFolders(world).has(dir)) {
    throw blackboardDeleteFailed(dir, 'it is not the work folder of any servant');
  }
  let root: string;
  try {
    root = await realpath(dir);
  } catch {
    throw blackboardDeleteFailed(dir, 'the work folder does not exist');
  }
  return { root, board: join(root, BLACKBOARD_DIR) };
}

/** Moves one note to the trash; a note that is already gone counts as deleted. */
export async function deleteBlackboardNote(world: World, dir: string, name: string, nowMs: number = Date.now()): Promise<void> {
  if (!isSafeNoteName(name)) throw blackboardDeleteFailed(name, 'that is not a note name (a top-level .md file)');
  const { root, board } = await boardOf(world, dir);
  const notes = await listNotes(board);
  if (!notes.some((n) => n.name === name)) return;
  const moved = await removeOp(root, join(board, name), `${BLACKBOARD_DIR}/${name}`, 'en', nowMs).catch((error: unknown) => ({
    body: error instanceof Error ? error.message : String(error),
    ok: false,
  }));
  if (typeof moved !== 'string') throw blackboardDeleteFailed(`${BLACKBOARD_DIR}/${name}`, moved.body);
}

/** Moves every note of the board to the trash; returns how many were moved. */
export async function clearBlackboard(world: World, dir: string, nowMs: number = Date.now()): Promise<number> {
  const { board } = await boardOf(world, dir);
  const notes = await listNotes(board);
  for (const note of notes) await deleteBlackboardNote(world, dir, note.name, nowMs);
  return notes.length;
}

/** The host's blackboard facet over the current world (whose work folders are the boards). */
export class BlackboardCommands implements BlackboardApi {
  constructor(private readonly world: () => World) {}

  list(): Promise<BlackboardView[]> {
    return listBlackboards(this.world());
  }

  async deleteNote(dir: string, name: string): Promise<BlackboardView[]> {
    await deleteBlackboardNote(this.world(), dir, name);
    return this.list();
  }

  async clear(dir: string): Promise<BlackboardView[]> {
    await clearBlackboard(this.world(), dir);
    return this.list();
  }
}
