/**
 * Work-folder confinement for the file tools. Every path a model gives is relative to the agent's work
 * folder; it is resolved with symlinks followed and must still lie inside the (real) root. Refusals are
 * texts the model can act on, never throws. This is a guard against mistakes and casual escapes, not a
 * sandbox: a process with the same user rights can always race a check (see `file` for O_NOFOLLOW writes).
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';
import type { Stats } from 'node:fs';
import type { Language } from '../world/types.js';
import { pick } from './toolText.js';

/** A resolved absolute path inside the root, or the text that explains the refusal. */
export type Confined = { ok: true; path: string } | { ok: false; refusal: string };

/** Control or invisible format characters (newline, NUL, zero-width, bidi overrides, BOM): never in a name. */
const HIDDEN_CHARS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** The fixed text when the agent has no work folder. */
export function noWorkDirText(language: Language): string {
  return pick(
    language,
    '作業フォルダが設定されていません。ユーザーに作業フォルダの設定を頼んでください。',
    'No work folder is set. Ask the user to set a work folder for you.',
  );
}

const no = (refusal: string): Confined => ({ ok: false, refusal });

/** How refusals name the confining place: the work folder, or the declared reference folders of `rag`. */
export type Place = 'work' | 'rag';

function placeName(place: Place, language: Language): string {
  if (place === 'rag') return pick(language, '宣言された資料フォルダ', 'the declared reference folders');
  return pick(language, '作業フォルダ', 'the work folder');
}

/** Checks that need no disk: type, NUL and hidden chars, absolute paths, and `..` that leaves the root. */
function lexicalCheck(root: string, rel: unknown, language: Language, place: Place = 'work'): Confined {
  if (typeof rel !== 'string') {
    return no(pick(language, 'パスは文字列で指定してください。', 'The path must be a string.'));
  }
  if (rel.includes('\0') || HIDDEN_CHARS.test(rel)) {
    return no(
      pick(
        language,
        `パス ${JSON.stringify(rel)} に制御文字や見えない文字が含まれています。普通の文字だけのパスにしてください。`,
        `The path ${JSON.stringify(rel)} contains control or invisible characters; use a plain name.`,
      ),
    );
  }
  if (isAbsolute(rel) || win32.isAbsolute(rel)) {
    return no(
      pick(
        language,
        `絶対パス ${rel} は使えません。${placeName(place, language)}からの相対パスを指定してください。`,
        `Absolute path ${rel} is not allowed; give a path relative to ${placeName(place, language)}.`,
      ),
    );
  }
  const target = resolve(root, rel);
  if (!isInside(root, target)) return outside(rel, language, place);
  return { ok: true, path: target };
}

function outside(rel: string, language: Language, place: Place = 'work'): Confined {
  const name = placeName(place, language);
  return no(
    pick(
      language,
      `${rel} は${name}の外を指しています。${name}の中のパスだけを使えます。`,
      `${rel} points outside ${name}; only paths inside ${name} are allowed.`,
    ),
  );
}

function notFound(rel: string, language: Language, place: Place): Confined {
  return no(pick(language, `${rel} が見つかりません。`, `${rel} was not found in ${placeName(place, language)}.`));
}

function loop(rel: string, language: Language): Confined {
  return no(pick(language, `${rel} はシンボリックリンクが循環しています。`, `${rel} is a symlink loop.`));
}

function special(rel: string, language: Language): Confined {
  return no(
    pick(
      language,
      `${rel} は通常のファイルでもフォルダでもありません（FIFO・ソケット・デバイス）。扱えません。`,
      `${rel} is not a regular file or folder (FIFO, socket or device); it cannot be used.`,
    ),
  );
}

/** True when `target` is `root` or below it (both absolute and normalized). */
export function isInside(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function errCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? '';
}

/** Real path of the work folder, or a refusal when it is unset or gone. */
async function realRoot(workDir: string | null, language: Language): Promise<Confined> {
  if (workDir === null) return no(noWorkDirText(language));
  try {
    return { ok: true, path: await realpath(workDir) };
  } catch {
    return no(
      pick(
        language,
        `作業フォルダ ${workDir} が見つかりません。ユーザーに設定の確認を頼んでください。`,
        `The work folder ${workDir} does not exist; ask the user to check the setting.`,
      ),
    );
  }
}

/**
 * Resolves an existing path `rel` inside `workDir` (symlinks followed). Missing, outside, looping and
 * special files are separate refusals. An empty `rel` means the work folder itself.
 */
export async function resolveInWorkDir(workDir: string | null, rel: unknown, language: Language = 'en'): Promise<Confined> {
  const root = await realRoot(workDir, language);
  if (!root.ok) return root;
  return resolveExisting(root.path, rel, language, 'work');
}

/**
 * The check behind every read-only tool, for any confining root that is already a real path: `rel` is
 * resolved with symlinks followed and must still lie inside `realRootPath`. `place` only picks the wording.
 */
export async function resolveExisting(realRootPath: string, rel: unknown, language: Language, place: Place): Promise<Confined> {
  const relText = rel === '' ? '.' : rel;
  const lexical = lexicalCheck(realRootPath, relText, language, place);
  if (!lexical.ok) return lexical;
  const shown = String(relText);
  let real: string;
  try {
    real = await realpath(lexical.path);
  } catch (error) {
    if (errCode(error) === 'ELOOP') return loop(shown, language);
    return notFound(shown, language, place);
  }
  if (!isInside(realRootPath, real)) return outside(shown, language, place);
  let info: Stats;
  try {
    info = await stat(real);
  } catch {
    return notFound(shown, language, place);
  }
  if (!info.isFile() && !info.isDirectory()) return special(shown, language);
  return { ok: true, path: real };
}

/**
 * Resolves a path `rel` that a tool may create or overwrite: the deepest existing ancestor is resolved
 * with symlinks and must lie inside the root; the rest are plain names; an existing symlink or special
 * file as the target is refused; the work folder itself is never a target.
 */
export async function resolveCreatable(workDir: string | null, rel: unknown, language: Language = 'en'): Promise<Confined> {
  const root = await realRoot(workDir, language);
  if (!root.ok) return root;
  const lexical = lexicalCheck(root.path, rel, language);
  if (!lexical.ok) return lexical;
  const shown = String(rel);
  if (lexical.path === root.path) {
    return no(pick(language, '作業フォルダそのものは対象にできません。', 'The work folder itself cannot be the target.'));
  }

  try {
    const own = await lstat(lexical.path);
    if (own.isSymbolicLink()) {
      return no(
        pick(
          language,
          `${shown} はシンボリックリンクです。リンクへの書き込みはできません。`,
          `${shown} is a symlink; writing through a symlink is not allowed.`,
        ),
      );
    }
    if (!own.isFile() && !own.isDirectory()) return special(shown, language);
  } catch (error) {
    if (errCode(error) === 'ELOOP') return loop(shown, language);
    if (errCode(error) !== 'ENOENT' && errCode(error) !== 'ENOTDIR') throw error;
  }

  // Walk up to the deepest ancestor that exists; everything below it is a plain name (lexically checked).
  const rest: string[] = [basename(lexical.path)];
  let ancestor = dirname(lexical.path);
  for (;;) {
    try {
      const real = await realpath(ancestor);
      if (!isInside(root.path, real)) return outside(shown, language);
      return { ok: true, path: join(real, ...rest) };
    } catch (error) {
      const code = errCode(error);
      if (code === 'ELOOP') return loop(shown, language);
      if (code !== 'ENOENT' || ancestor === root.path) {
        return no(pick(language, `${shown} の親フォルダを開けません。`, `The parent folder of ${shown} cannot be opened.`));
      }
      // ENOENT from realpath while the name itself exists means a dangling symlink on the way: refuse it,
      // since creating "through" it would land wherever it points.
      if (await exists(ancestor)) {
        return no(
          pick(
            language,
            `${shown} の途中に壊れたシンボリックリンクがあります。`,
            `${shown} goes through a broken symlink; that is not allowed.`,
          ),
        );
      }
      rest.unshift(basename(ancestor));
      ancestor = dirname(ancestor);
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The path to show the model for an absolute path inside the root: relative, `/`-separated. */
export function shownPath(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' ? '.' : rel.split(sep).join('/');
}
