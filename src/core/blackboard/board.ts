/**
 * The blackboard: Markdown notes in `blackboard/` of a work folder that agents share. Agents post, list and read
 * through the `blackboard` tool; a person sees the notes read-only in the GUI and may delete them (to the work
 * folder's `.fuseforks-trash/`). Notes live only in files: they never enter a prompt or the room log by themselves.
 *
 * A post is one new file `{UTC stamp}-{agentId}.md` with a small header (author, time, title), written to a
 * hidden temp file and hard-linked into place — atomic, and a name that exists is never overwritten, so two
 * agents posting at the same moment each keep their note. Files a person put there (no header) are notes too.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { trashStamp } from '../tools/fileOps.js';

/** The folder name under a work folder (no dot: grep and fd skip dot-folders, and agents should find notes). */
export const BLACKBOARD_DIR = 'blackboard';
/** Longest note title, in chars. */
export const MAX_TITLE_CHARS = 120;
/** Longest note body, in chars. */
export const MAX_BODY_CHARS = 20_000;
/** Most of a note's text handed to the GUI, in chars (the rest is cut with a note). */
export const MAX_GUI_NOTE_CHARS = 256 * 1024;

/** One note as listed. `author`/`postedAtMs` are null for a file a person wrote without the header. */
export interface BoardNote {
  name: string;
  author: string | null;
  authorName: string | null;
  postedAtMs: number | null;
  title: string;
  modifiedMs: number;
  chars: number;
}

/** The header and body of a note's text. */
export interface ParsedNote {
  author: string | null;
  authorName: string | null;
  postedAtMs: number | null;
  title: string | null;
  body: string;
}

const HEADER = /^---\r?\n((?:[a-zA-Z]+: .*\r?\n)*)---\r?\n/;

/** The text of a new note: a header of JSON-quoted values (no YAML parser needed to read it back), then the body. */
export function noteText(author: string, authorName: string, postedAtMs: number, title: string, body: string): string {
  const header = [
    `author: ${JSON.stringify(author)}`,
    `authorName: ${JSON.stringify(authorName)}`,
    `posted: ${JSON.stringify(new Date(postedAtMs).toISOString())}`,
    `title: ${JSON.stringify(title)}`,
  ].join('\n');
  return `---\n${header}\n---\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** Reads a note's header (when it has one). */
export function parseNote(text: string): ParsedNote {
  const m = HEADER.exec(text);
  const fields: Record<string, string> = {};
  if (m !== null) {
    for (const line of (m[1] ?? '').split(/\r?\n/)) {
      const at = line.indexOf(': ');
      if (at < 0) continue;
      try {
        const value: unknown = JSON.parse(line.slice(at + 2));
        if (typeof value === 'string') fields[line.slice(0, at)] = value;
      } catch {
        // A hand-edited header line that is not JSON is simply not read.
      }
    }
  }
  const posted = fields.posted === undefined ? Number.NaN : Date.parse(fields.posted);
  return {
    author: fields.author ?? null,
    authorName: fields.authorName ?? null,
    postedAtMs: Number.isFinite(posted) ? posted : null,
    title: fields.title ?? null,
    body: m === null ? text : text.slice(m[0].length),
  };
}

/** A note name a caller may address: a plain top-level `.md` file name (no dot start, no separators). */
export function isSafeNoteName(name: string): boolean {
  return /^[^./\\][^/\\]*\.md$/i.test(name) && !/[\p{Cc}\p{Cf}]/u.test(name) && name.length <= 200;
}

/** The title a note shows: its header title, else its first heading, else its file name. */
function titleOf(parsed: ParsedNote, name: string): string {
  if (parsed.title !== null && parsed.title.trim() !== '') return parsed.title;
  const heading = /^#{1,6}[ \t]+(.+)$/m.exec(parsed.body)?.[1];
  return heading?.trim() ?? name.replace(/\.md$/i, '');
}

/** Creates `{board}` if missing; refuses a `blackboard` that is a symlink or not a folder. */
export async function ensureBoard(board: string): Promise<void> {
  try {
    const info = await lstat(board);
    if (!info.isDirectory()) throw new Error(`${board} is not a plain folder`);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(board, { recursive: true });
}

/** Posts a note into `board` (an existing real folder); returns the file name it got. */
export async function postNote(board: string, author: string, authorName: string, title: string, body: string, nowMs: number): Promise<string> {
  const text = noteText(author, authorName, nowMs, title, body);
  const temp = join(board, `.post-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    const base = `${trashStamp(nowMs)}-${author}`;
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? `${base}.md` : `${base}-${n}.md`;
      try {
        // link() never replaces an existing name: a clash moves on to the next suffix, so no note is lost.
        await link(temp, join(board, name));
        return name;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Reads one note's text (null when missing or not a regular file). */
export async function readNote(board: string, name: string): Promise<string | null> {
  if (!isSafeNoteName(name)) return null;
  const path = join(board, name);
  try {
    const info = await lstat(path);
    if (!info.isFile()) return null;
    const handle = await open(path, 'r');
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** Every top-level note of `board`, oldest first (by posting time, else by file time). A missing board is empty. */
export async function listNotes(board: string): Promise<Array<BoardNote & { text: string }>> {
  let names: string[];
  try {
    names = (await readdir(board, { withFileTypes: true })).filter((d) => d.isFile() && isSafeNoteName(d.name)).map((d) => d.name);
  } catch {
    return [];
  }
  const notes: Array<BoardNote & { text: string }> = [];
  for (const name of names) {
    try {
      const path = join(board, name);
      const info = await lstat(path);
      const text = await readNote(board, name);
      if (text === null) continue;
      const parsed = parseNote(text);
      notes.push({
        name,
        author: parsed.author,
        authorName: parsed.authorName,
        postedAtMs: parsed.postedAtMs,
        title: titleOf(parsed, name),
        modifiedMs: Math.round(info.mtimeMs),
        chars: text.length,
        text,
      });
    } catch {
      // An unreadable file is skipped: the board shows what it can read.
    }
  }
  return notes.sort((a, b) => (a.postedAtMs ?? a.modifiedMs) - (b.postedAtMs ?? b.modifiedMs) || (a.name < b.name ? -1 : 1));
}
