/**
 * The chat input's `@` path completion. Pure parts (where the `@` word is, what inserting a path gives) and a small
 * controller that asks the server for the addressed servant's work-folder paths (the server confines them as the
 * file tools do) and moves through them with the arrow keys. DOM-free: the textarea is reached through a port.
 */
import { reactive } from 'vue';
import { ApiError, type Store } from './store.js';
import type { WorkFileList } from './types.js';

/** The `@` word the caret is in: where it starts (at the `@`) and what follows the `@` up to the caret. */
export interface AtWord {
  start: number;
  query: string;
}

/** The `@word` ending at `caret`, when the word starts with `@` after a space, a line start or the text start. */
export function atWord(text: string, caret: number): AtWord | null {
  let i = caret;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i -= 1;
  if (text[i] !== '@' || i === caret) return null;
  return { start: i, query: text.slice(i + 1, caret) };
}

/** The text with the `@word` replaced by `@path` (a space after a file, none after a folder) and the new caret. */
export function insertPath(text: string, word: AtWord, caret: number, path: string): { text: string; caret: number } {
  const inserted = `@${path}${path.endsWith('/') ? '' : ' '}`;
  return { text: text.slice(0, word.start) + inserted + text.slice(caret), caret: word.start + inserted.length };
}


/** What the controller needs of the textarea. */
export interface CaretField {
  value: string;
  selectionStart: number | null;
  setSelectionRange(start: number, end: number): void;
  focus(): void;
}

/** Keys as the controller sees them (a KeyboardEvent fits). */
export interface KeyLike {
  key: string;
  isComposing?: boolean;
  preventDefault(): void;
  stopPropagation(): void;
}

/** The completion list's state: open with paths, the active one, and a note (no work folder, refusal, nothing found). */
export interface PathCompletionState {
  open: boolean;
  paths: string[];
  active: number;
  note: '' | 'noWorkDir' | 'none' | 'refused';
  reason: string;
  truncated: boolean;
}

/** Builds the controller; `agentId` is the addressed servant, `setText` writes the input's model. */
export function pathCompletion(store: Store, agentId: () => string | null, field: () => CaretField | null, setText: (text: string) => void) {
  const state = reactive<PathCompletionState>({ open: false, paths: [], active: 0, note: '', reason: '', truncated: false });
  let seq = 0;
  let word: AtWord | null = null;

  function close(): void {
    seq += 1;
    word = null;
    Object.assign(state, { open: false, paths: [], active: 0, note: '', reason: '', truncated: false });
  }

  /** After every input: opens, refreshes or closes the list for the `@word` at the caret. */
  async function update(): Promise<void> {
    const el = field();
    const id = agentId();
    const found = el === null || id === null ? null : atWord(el.value, el.selectionStart ?? el.value.length);
    if (found === null || id === null) return close();
    word = found;
    const mine = (seq += 1);
    let list: WorkFileList | null = null;
    let reason = '';
    try {
      list = await store.lookup<WorkFileList>(`/api/agents/${id}/work-files`, { query: found.query });
    } catch (error) {
      reason = error instanceof ApiError ? error.wire.message : String(error);
    }
    if (mine !== seq) return; // a newer keystroke answered meanwhile
    const paths = list?.paths ?? [];
    const note = list === null ? 'refused' : list.workDir === null ? 'noWorkDir' : paths.length === 0 ? 'none' : '';
    Object.assign(state, { open: true, paths, active: 0, note, reason, truncated: list?.truncated ?? false });
  }

  /** Inserts path `index` in place of the `@word`. */
  function pick(index: number): void {
    const el = field();
    const path = state.paths[index];
    if (el === null || word === null || path === undefined) return;
    const caret = el.selectionStart ?? el.value.length;
    const next = insertPath(el.value, word, caret, path);
    setText(next.text);
    el.value = next.text;
    el.setSelectionRange(next.caret, next.caret);
    el.focus();
    // A folder keeps the list open, now listing inside it.
    if (path.endsWith('/')) void update();
    else close();
  }

  /** Arrow keys move, Enter or Tab insert, Escape closes; true when the key was the list's (the caller does nothing more). */
  function onKey(e: KeyLike): boolean {
    if (!state.open || e.isComposing === true) return false;
    const n = state.paths.length;
    const take = () => {
      e.preventDefault();
      e.stopPropagation();
      return true;
    };
    if (e.key === 'Escape') return close(), take();
    if (n === 0) return false;
    if (e.key === 'ArrowDown') return (state.active = (state.active + 1) % n), take();
    if (e.key === 'ArrowUp') return (state.active = (state.active - 1 + n) % n), take();
    if (e.key === 'Enter' || e.key === 'Tab') return pick(state.active), take();
    return false;
  }

  return { state, update, pick, onKey, close };
}
