/**
 * The batch work-folder dialog's recent folders: the last 8 applied, newest first, kept on this device
 * (localStorage), never in the village. Pure: reading drops anything that is not a non-empty string.
 */

/** localStorage key. */
export const WORK_DIR_HISTORY_KEY = 'fuseforks.workDirHistory.v1';
/** How many folders are remembered. */
export const WORK_DIR_HISTORY_MAX = 8;

/** The remembered folders a stored text stands for (corrupt = none). */
export function parseWorkDirHistory(stored: string | null): string[] {
  let value: unknown = null;
  try {
    value = stored === null ? null : JSON.parse(stored);
  } catch {
    value = null;
  }
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((x): x is string => typeof x === 'string' && x.trim() !== ''))].slice(0, WORK_DIR_HISTORY_MAX);
}

/** The list with `folder` first (moved up when already there), at most WORK_DIR_HISTORY_MAX long. */
export function rememberWorkDir(history: readonly string[], folder: string): string[] {
  if (folder.trim() === '') return [...history];
  return [folder, ...history.filter((x) => x !== folder)].slice(0, WORK_DIR_HISTORY_MAX);
}
