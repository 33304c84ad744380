/**
 * The two document editors behind `yq`, both format-preserving and both loaded on first use (the worker does
 * not pay for them until an agent edits a file): JSON through `jsonc-parser`'s edit API (comments, key order,
 * the file's indentation and newline style stay), TOML through `@decimalturn/toml-patch` (comments, layout and
 * CRLF/LF stay). Neither is parsed by hand here.
 */
import type { KeyStep } from './keyPath.js';

/** A value to write, or REMOVE to delete the key. */
export const REMOVE: unique symbol = Symbol('remove');
export type EditValue = unknown | typeof REMOVE;

/** Parses and edits one document format. Errors are one-line reasons (no document text in them). */
export interface DocEditor {
  readonly format: 'json' | 'toml';
  parse(text: string): Promise<{ value: unknown } | { error: string }>;
  edit(text: string, steps: readonly KeyStep[], value: EditValue): Promise<{ text: string } | { error: string }>;
}

/** `line:column` (1-based) of a char offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${(before.at(-1) ?? '').length + 1}`;
}

/** The indentation and newline style a JSON file already uses (2 spaces and LF when it shows none). */
export function detectJsonFormat(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let insertSpaces = true;
  let tabSize = 0;
  for (const line of text.split(/\r?\n/)) {
    const lead = /^([ \t]+)\S/.exec(line)?.[1];
    if (lead === undefined) continue;
    if (lead.startsWith('\t')) {
      insertSpaces = false;
      tabSize = 1;
      break;
    }
    tabSize = tabSize === 0 ? lead.length : Math.min(tabSize, lead.length);
  }
  return { insertSpaces, tabSize: tabSize === 0 ? 2 : tabSize, eol };
}

type JsoncParser = typeof import('jsonc-parser');
let jsonc: Promise<JsoncParser> | null = null;

/** JSON (comments and trailing commas tolerated, as in most config files). */
export const jsonEditor: DocEditor = {
  format: 'json',
  async parse(text) {
    const lib = await (jsonc ??= import('jsonc-parser'));
    const errors: import('jsonc-parser').ParseError[] = [];
    const value: unknown = lib.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
    const first = errors[0];
    if (first !== undefined) return { error: `${lib.printParseErrorCode(first.error)} at line:column ${lineColumn(text, first.offset)}` };
    return { value };
  },
  async edit(text, steps, value) {
    const lib = await (jsonc ??= import('jsonc-parser'));
    const edits = lib.modify(text, [...steps], value === REMOVE ? undefined : value, { formattingOptions: detectJsonFormat(text) });
    return { text: lib.applyEdits(text, edits) };
  },
};

type TomlPatch = typeof import('@decimalturn/toml-patch');
let toml: Promise<TomlPatch> | null = null;

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** TOML (the document is parsed, changed in place at the path, and patched back onto the original text). */
export const tomlEditor: DocEditor = {
  format: 'toml',
  async parse(text) {
    const lib = await (toml ??= import('@decimalturn/toml-patch'));
    try {
      return { value: lib.parse(text) as unknown };
    } catch (error) {
      return { error: (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'not valid TOML' };
    }
  },
  async edit(text, steps, value) {
    const lib = await (toml ??= import('@decimalturn/toml-patch'));
    if (value === null) return { error: 'TOML has no null; write a value, or use op "remove"' };
    let doc: unknown;
    try {
      doc = lib.parse(text);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    let here: unknown = doc;
    for (const step of steps.slice(0, -1)) {
      const container = here as Record<string | number, unknown>;
      // Missing tables on the way are created (the caller has checked that only keys are missing).
      if (container[step] === undefined && typeof step === 'string') container[step] = {};
      here = container[step];
    }
    const last = steps[steps.length - 1] as KeyStep;
    if (value === REMOVE) {
      if (Array.isArray(here) && typeof last === 'number') here.splice(last, 1);
      else if (isTable(here)) delete here[last as string];
    } else {
      (here as Record<string | number, unknown>)[last] = value;
    }
    try {
      return { text: lib.patch(text, doc) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  },
};
