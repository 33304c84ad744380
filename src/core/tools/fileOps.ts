/**
 * The operations behind the `file` tool, one function each. Paths come in already confined; every
 * function returns the model-facing text or a refusal. Writes open with O_NOFOLLOW so a symlink that
 * appears between the check and the write is not followed.
 *
 * `remove` never deletes: it moves the entry to `{workDir}/.fuseforks-trash/{UTC timestamp}-{name}`, a
 * dot-folder the walkers skip, so the user can restore it (and empty it when they like).
 */
import { constants } from 'node:fs';
import { cp, lstat, mkdir, open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Language } from '../world/types.js';
import type { ToolReply } from './contract.js';
import { isInside } from './confinement.js';
import { MAX_FILE_BYTES, readTextFile } from './textFile.js';
import { MAX_OUTPUT_CHARS, pick, refuse } from './toolText.js';

/** Name of the trash folder inside the work folder. */
export const TRASH_DIR_NAME = '.fuseforks-trash';

/** Bytes read from a file over 2 MiB to show its head (enough for 12,000 chars of any UTF-8 text). */
const HEAD_BYTES = 48 * 1024;

async function kindOf(path: string): Promise<'file' | 'dir' | 'link' | 'other' | 'none'> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return 'link';
    if (info.isFile()) return 'file';
    if (info.isDirectory()) return 'dir';
    return 'other';
  } catch {
    return 'none';
  }
}

/** `read`: at most 12,000 chars, with a note when there is more. */
export async function readOp(abs: string, shown: string, lang: Language): Promise<string | ToolReply> {
  if ((await kindOf(abs)) !== 'file') {
    return refuse(pick(lang, `${shown} はファイルではありません。`, `${shown} is not a file.`));
  }
  let read = await readTextFile(abs);
  let partialBytes = false;
  if (!read.ok && read.skip === 'too_big') {
    partialBytes = true;
    const handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      const head = buffer.subarray(0, bytesRead);
      read = head.includes(0) ? { ok: false, skip: 'binary' } : { ok: true, text: head.toString('utf8'), bytes: bytesRead };
    } finally {
      await handle.close();
    }
  }
  if (!read.ok) {
    return refuse(pick(lang, `${shown} はテキストとして読めません（${read.skip}）。`, `${shown} cannot be read as text (${read.skip}).`));
  }
  if (read.text.length <= MAX_OUTPUT_CHARS && !partialBytes) return read.text;
  const total = partialBytes ? pick(lang, '2 MiB 超', 'over 2 MiB') : String(read.text.length);
  return (
    read.text.slice(0, MAX_OUTPUT_CHARS) +
    pick(
      lang,
      `\n…（先頭 ${MAX_OUTPUT_CHARS} 文字のみ表示。全体 ${total} 文字。grep で必要な箇所を探してください）`,
      `\n… (first ${MAX_OUTPUT_CHARS} chars of ${total} shown; use grep to find the part you need)`,
    )
  );
}

/** `write` / `append`: at most 2 MiB of content; an existing file is replaced only with `overwrite`. */
export async function writeOp(
  abs: string,
  shown: string,
  content: string,
  mode: 'write' | 'append',
  overwrite: boolean,
  lang: Language,
): Promise<string | ToolReply> {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_FILE_BYTES) {
    return refuse(pick(lang, `内容が大きすぎます（${bytes} バイト、上限 2 MiB）。`, `The content is too large (${bytes} bytes, limit 2 MiB).`));
  }
  const kind = await kindOf(abs);
  if (kind === 'dir') return refuse(pick(lang, `${shown} はフォルダです。`, `${shown} is a folder.`));
  if (mode === 'write' && kind === 'file' && !overwrite) {
    return refuse(
      pick(
        lang,
        `${shown} はすでにあります。上書きするなら overwrite: true を付けてください。`,
        `${shown} already exists; pass overwrite: true to replace it.`,
      ),
    );
  }
  await mkdir(dirname(abs), { recursive: true });
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    (mode === 'append' ? constants.O_APPEND : constants.O_TRUNC | (overwrite ? 0 : constants.O_EXCL));
  const handle = await open(abs, flags, 0o644);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
  return mode === 'append'
    ? pick(lang, `${shown} に ${content.length} 文字追記しました。`, `Appended ${content.length} chars to ${shown}.`)
    : pick(lang, `${shown} に ${content.length} 文字書きました。`, `Wrote ${content.length} chars to ${shown}.`);
}

/** `mkdir`: creates the folder and its missing parents. */
export async function mkdirOp(abs: string, shown: string, lang: Language): Promise<string | ToolReply> {
  const kind = await kindOf(abs);
  if (kind === 'dir') return pick(lang, `${shown} はすでにあります。`, `${shown} already exists.`);
  if (kind !== 'none') return refuse(pick(lang, `${shown} はフォルダ以外として存在します。`, `${shown} exists and is not a folder.`));
  await mkdir(abs, { recursive: true });
  return pick(lang, `フォルダ ${shown} を作りました。`, `Created folder ${shown}.`);
}

/** `move` / `copy`: the target must not exist unless `overwrite` (files only); a folder never goes into itself. */
export async function moveOrCopyOp(
  from: string,
  to: string,
  shown: { from: string; to: string },
  op: 'move' | 'copy',
  overwrite: boolean,
  lang: Language,
): Promise<string | ToolReply> {
  const source = await kindOf(from);
  if (source !== 'file' && source !== 'dir') {
    return refuse(pick(lang, `${shown.from} はファイルでもフォルダでもありません。`, `${shown.from} is not a file or folder.`));
  }
  if (isInside(from, to)) {
    return refuse(pick(lang, 'フォルダをその中へは移せません。', 'A folder cannot be moved or copied into itself.'));
  }
  const target = await kindOf(to);
  if (target !== 'none' && !overwrite) {
    return refuse(pick(lang, `${shown.to} はすでにあります。上書きするなら overwrite: true を付けてください。`, `${shown.to} already exists; pass overwrite: true to replace it.`));
  }
  if (target !== 'none' && (target !== 'file' || source !== 'file')) {
    return refuse(pick(lang, 'overwrite で置き換えられるのはファイルだけです。', 'overwrite can only replace a file with a file.'));
  }
  await mkdir(dirname(to), { recursive: true });
  if (op === 'move') {
    await rename(from, to);
    return pick(lang, `${shown.from} を ${shown.to} へ移しました。`, `Moved ${shown.from} to ${shown.to}.`);
  }
  // Links inside a copied folder stay links (never dereferenced), so a copy cannot pull outside files in.
  await cp(from, to, { recursive: true, force: overwrite, errorOnExist: !overwrite, verbatimSymlinks: true });
  return pick(lang, `${shown.from} を ${shown.to} へコピーしました。`, `Copied ${shown.from} to ${shown.to}.`);
}

/** A file-name-safe UTC timestamp, e.g. `20260822T143501123Z`. */
export function trashStamp(nowMs: number): string {
  return new Date(nowMs).toISOString().replace(/[-:.]/g, '');
}

/** `remove`: moves the entry into `{root}/.fuseforks-trash/{timestamp}-{name}`. */
export async function removeOp(root: string, abs: string, shown: string, lang: Language, nowMs: number): Promise<string | ToolReply> {
  const trash = join(root, TRASH_DIR_NAME);
  if (abs === root) return refuse(pick(lang, '作業フォルダそのものは消せません。', 'The work folder itself cannot be removed.'));
  if (isInside(trash, abs)) return refuse(pick(lang, `${shown} はすでにごみ箱の中です。`, `${shown} is already in the trash.`));
  const trashKind = await kindOf(trash);
  if (trashKind !== 'none' && trashKind !== 'dir') {
    return refuse(pick(lang, `${TRASH_DIR_NAME} がフォルダではありません。ユーザーに確認を頼んでください。`, `${TRASH_DIR_NAME} is not a plain folder; ask the user to check it.`));
  }
  await mkdir(trash, { recursive: true });
  const base = `${trashStamp(nowMs)}-${basename(abs)}`;
  let dest = join(trash, base);
  for (let n = 2; (await kindOf(dest)) !== 'none'; n += 1) dest = join(trash, `${base}-${n}`);
  await rename(abs, dest);
  return pick(
    lang,
    `${shown} をごみ箱 ${TRASH_DIR_NAME}/${basename(dest)} へ移しました。`,
    `Moved ${shown} to the trash: ${TRASH_DIR_NAME}/${basename(dest)}.`,
  );
}
