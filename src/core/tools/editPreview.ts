/**
 * What the editing tools (`sd`, `yq`) share: reading a file they may change, the unified diff they show,
 * the 12,000-char refusal (a diff the model cannot see whole is never applied), and the write itself —
 * atomic (temp file + rename, mode kept), and only if the file still holds what the preview was made from.
 */
import { createHash } from 'node:crypto';
import { chmod, readFile, stat } from 'node:fs/promises';
import { createTwoFilesPatch } from 'diff';
import { writeFileAtomic } from '../village/atomicWrite.js';
import type { Language } from '../world/types.js';
import type { ToolReply } from './contract.js';
import { readTextFile } from './textFile.js';
import { MAX_OUTPUT_CHARS, pick, refuse } from './toolText.js';

/** Longest diff an editing tool shows or applies, in chars (the shared output cap). */
export const MAX_DIFF_CHARS = MAX_OUTPUT_CHARS;

/** A file read for editing: its text and a fingerprint of the bytes it came from. */
export interface EditableFile {
  abs: string;
  shown: string;
  text: string;
  digest: string;
}

function digestOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads `abs` for editing: a regular text file of at most 2 MiB whose bytes are valid UTF-8 (a file that would
 * not survive the decode/encode round trip is refused rather than silently re-encoded).
 */
export async function readEditable(abs: string, shown: string, tool: string, language: Language): Promise<EditableFile | ToolReply> {
  const read = await readTextFile(abs);
  if (!read.ok) {
    const why = {
      too_big: pick(language, '2 MiB を超えています', 'is larger than 2 MiB'),
      binary: pick(language, 'バイナリです', 'is binary'),
      not_file: pick(language, 'ファイルではありません', 'is not a file'),
      unreadable: pick(language, '読めません', 'cannot be read'),
    }[read.skip];
    return refuse(pick(language, `${tool}: ${shown} は${why}。`, `${tool}: ${shown} ${why}.`));
  }
  const bytes = Buffer.from(read.text, 'utf8');
  const raw = await readFile(abs);
  if (!raw.equals(bytes)) {
    return refuse(
      pick(
        language,
        `${tool}: ${shown} は UTF-8 として正しくないバイトを含むため、書き換えると中身が変わってしまいます。扱えません。`,
        `${tool}: ${shown} has bytes that are not valid UTF-8; rewriting it would change them, so it is left alone.`,
      ),
    );
  }
  return { abs, shown, text: read.text, digest: digestOf(raw) };
}

/** The unified diff of one file's change, headed with its shown path. */
export function unifiedDiff(shown: string, before: string, after: string): string {
  return createTwoFilesPatch(shown, shown, before, after, undefined, undefined, { context: 3 });
}

/** The refusal for a diff over the cap: nothing is shown in part and nothing is applied. */
export function diffTooLong(tool: string, chars: number, language: Language): ToolReply {
  return refuse(
    pick(
      language,
      `${tool}: 差分が ${chars} 文字あり、上限 ${MAX_DIFF_CHARS} 文字を超えます。途中で切った差分は見せず、適用もしません。パターンや対象を絞って、小さな変更に分けてください。`,
      `${tool}: the diff is ${chars} chars, over the ${MAX_DIFF_CHARS}-char limit. A diff is never cut or applied in part: narrow the pattern or the target and make smaller changes.`,
    ),
  );
}

/**
 * Writes `after` over the file atomically, keeping its mode, unless the file changed since it was read
 * (then the edit is refused so a concurrent change is never overwritten).
 */
export async function writeEdited(file: EditableFile, after: string, tool: string, language: Language): Promise<ToolReply | null> {
  const now = await readFile(file.abs).catch(() => null);
  if (now === null || digestOf(now) !== file.digest) {
    return refuse(
      pick(
        language,
        `${tool}: ${file.shown} が読んだ後に変わりました。もう一度プレビューしてから適用してください。`,
        `${tool}: ${file.shown} changed after it was read; preview again, then apply.`,
      ),
    );
  }
  const mode = (await stat(file.abs)).mode & 0o7777;
  await writeFileAtomic(file.abs, after, { mode });
  // The temp file was created under the umask; put the original mode back exactly.
  await chmod(file.abs, mode);
  return null;
}
