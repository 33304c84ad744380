/**
 * The confinement of `rag`: the folders a person declared in `ragSources`, checked again on every call (a drive
 * plugged back in comes back), and a model-given path resolved inside exactly one of them with the same checks
 * as the work-folder tools (`resolveExisting`: symlinks followed, then the real path must stay inside).
 */
import { statSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Language } from '../world/types.js';
import { isInside, resolveExisting } from './confinement.js';
import { pick } from './toolText.js';

/** A declared folder that exists: as declared (shown) and as its real path (checked against). */
export interface RagRoot {
  declared: string;
  real: string;
}

export interface CheckedRoots {
  valid: RagRoot[];
  /** Declared folders that are missing, not folders, or not absolute. */
  invalid: string[];
}

/** Sorts the declared folders into usable and not (never throws). */
export function checkRoots(declared: readonly string[]): CheckedRoots {
  const valid: RagRoot[] = [];
  const invalid: string[] = [];
  for (const folder of declared) {
    try {
      if (!isAbsolute(folder)) throw new Error('relative');
      const real = realpathSync(folder);
      if (!statSync(real).isDirectory()) throw new Error('not a folder');
      if (!valid.some((r) => r.real === real)) valid.push({ declared: folder, real });
    } catch {
      invalid.push(folder);
    }
  }
  return { valid, invalid };
}

/** A path resolved inside one root: the root, the real path, and the path shown relative to the root. */
export type RootHit = { ok: true; root: RagRoot; path: string; rel: string } | { ok: false; refusal: string };

function relOf(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' ? '' : rel.split(/[\\/]/).join('/');
}

/**
 * Resolves `path`: an absolute one must lie inside a declared folder; a relative one must exist in exactly one
 * of them (found in two is ambiguous, never picked silently).
 */
export async function resolveInRoots(roots: readonly RagRoot[], path: string, language: Language): Promise<RootHit> {
  if (isAbsolute(path)) {
    const wanted = resolve(path);
    const root = roots.find((r) => isInside(r.declared, wanted) || isInside(r.real, wanted));
    if (root === undefined) {
      return {
        ok: false,
        refusal: pick(
          language,
          `${path} は宣言された資料フォルダの外です。読めるのは設定で宣言されたフォルダの中だけです。`,
          `${path} is outside the declared reference folders; only those folders can be read.`,
        ),
      };
    }
    const base = isInside(root.declared, wanted) ? root.declared : root.real;
    const found = await resolveExisting(root.real, relative(base, wanted), language, 'rag');
    return found.ok ? { ok: true, root, path: found.path, rel: relOf(root.real, found.path) } : found;
  }
  const hits: Array<{ root: RagRoot; path: string }> = [];
  let firstRefusal: string | null = null;
  for (const root of roots) {
    const found = await resolveExisting(root.real, path, language, 'rag');
    if (found.ok) hits.push({ root, path: found.path });
    else firstRefusal ??= found.refusal;
  }
  if (hits.length === 1) {
    const hit = hits[0]!;
    return { ok: true, root: hit.root, path: hit.path, rel: relOf(hit.root.real, hit.path) };
  }
  if (hits.length > 1) {
    const where = hits.map((h) => h.root.declared).join(' / ');
    return {
      ok: false,
      refusal: pick(
        language,
        `${path} は複数の資料フォルダにあって曖昧です（${where}）。絶対パスで指定してください。`,
        `${path} exists in more than one reference folder (${where}); give an absolute path.`,
      ),
    };
  }
  return { ok: false, refusal: firstRefusal ?? pick(language, `${path} が見つかりません。`, `${path} was not found.`) };
}
