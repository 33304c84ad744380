/**
 * The CLI's version (SPEC §6.6): the last git tag and the short commit, taken at BUILD time by
 * `scripts/writeVersion.mjs` into `dist/cli/buildInfo.json`, read here with a fallback. Never throws.
 */
import { readFileSync } from 'node:fs';

/** The version when nothing is known (no git, no build info). Never claims a release that was not tagged. */
export const UNKNOWN_VERSION = '0.0.0';

/** The file the build step writes beside the compiled CLI. */
export const BUILD_INFO_FILE = 'buildInfo.json';

/** What the build step records. */
export interface BuildInfo {
  version: string;
  /** Last tag as written (`v0.4.0`), or null. */
  tag: string | null;
  /** Short commit, or null without git. */
  commit: string | null;
}

/**
 * `0.4.0+g1b33d9d` from tag `v0.4.0` and commit `1b33d9d`; `0.0.0+g1b33d9d` without a tag; `0.0.0` without
 * a commit. A leading `v` is dropped; a blank input counts as absent.
 */
export function composeVersion(tag: string | null, commit: string | null): string {
  const cleanTag = tag?.trim() ?? '';
  const cleanCommit = commit?.trim() ?? '';
  const base = cleanTag === '' ? UNKNOWN_VERSION : cleanTag.replace(/^v(?=\d)/, '');
  return cleanCommit === '' ? base : `${base}+g${cleanCommit}`;
}

/** Reads a build-info file; a missing, unreadable or malformed file gives `0.0.0` (never a crash). */
export function readBuildVersion(file: URL | string = new URL(`./${BUILD_INFO_FILE}`, import.meta.url)): string {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const version = (parsed as { version?: unknown } | null)?.version;
    return typeof version === 'string' && version.trim() !== '' ? version.trim() : UNKNOWN_VERSION;
  } catch {
    return UNKNOWN_VERSION;
  }
}
