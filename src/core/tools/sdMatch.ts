/**
 * The one place `sd` finds matches and expands replacements. The rest of the tool sees only `findMatches`
 * and `expandReplacement`. Patterns are compiled by grep's `compilePattern`, i.e. the bounded-time engine of
 * safeRegex.ts (same limits, same refusals: no backreferences or lookarounds), with `g` and `m` added.
 *
 * Replacement syntax (the `sd` command's): `$1` or `${1}` is a numbered group, `$name` or `${name}` a named
 * group, `$$` a literal `$`; any other `$` stays as it is. A group the pattern does not have is refused, not
 * silently replaced by nothing. `^` and `$` match at line starts and ends.
 */
import type { Language } from '../world/types.js';
import type { ToolReply } from './contract.js';
import { compilePattern } from './grep.js';
import { pick, refuse } from './toolText.js';

/** One match: where it is and what its groups captured (undefined = the group did not take part). */
export interface SdMatch {
  index: number;
  end: number;
  groups: Array<string | undefined>;
  named: Record<string, string | undefined>;
}

/** A compiled search: the engine's pattern and the group names it defines. */
export interface SdSearch {
  regex: RegExp;
  groupCount: number;
  groupNames: ReadonlySet<string>;
}

/** One piece of a parsed replacement. */
export type ReplacementPart = { kind: 'text'; text: string } | { kind: 'group'; ref: number | string };

/** Compiles `pattern` for replacing, or returns the refusal text (too long, not a valid regex). */
export function compileSearch(pattern: string, caseInsensitive: boolean, language: Language): SdSearch | ToolReply {
  const compiled = compilePattern(pattern, caseInsensitive, language);
  if (!(compiled instanceof RegExp)) return compiled;
  // Multi-line, as the `sd` command: `^` and `$` match at every line, which is what a per-line edit means.
  const regex = new RegExp(compiled.source, `${compiled.flags}gm`);
  // Group count and names from a probe that always matches the empty string at 0.
  const probe = new RegExp(`${regex.source}|`, regex.flags.replace('g', '')).exec('');
  const groupCount = probe === null ? 0 : probe.length - 1;
  const groupNames = new Set(Object.keys(probe?.groups ?? {}));
  return { regex, groupCount, groupNames };
}

/** Every non-overlapping match of `search` in `text`, left to right (an empty match advances one char). */
export function findMatches(text: string, search: SdSearch): SdMatch[] {
  const out: SdMatch[] = [];
  const regex = new RegExp(search.regex.source, search.regex.flags);
  regex.lastIndex = 0;
  for (;;) {
    const m = regex.exec(text);
    if (m === null) break;
    out.push({ index: m.index, end: m.index + m[0].length, groups: [...m], named: { ...(m.groups ?? {}) } });
    if (m[0].length === 0) regex.lastIndex = m.index + (text.codePointAt(m.index)! > 0xffff ? 2 : 1);
    if (regex.lastIndex > text.length) break;
  }
  return out;
}

/** Parses a replacement into text and group references; refuses references the pattern cannot fill. */
export function parseReplacement(replacement: string, search: SdSearch, language: Language): ReplacementPart[] | ToolReply {
  const parts: ReplacementPart[] = [];
  let text = '';
  const flush = (): void => {
    if (text !== '') parts.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < replacement.length) {
    const ch = replacement[i] as string;
    if (ch !== '$') {
      text += ch;
      i += 1;
      continue;
    }
    const next = replacement[i + 1];
    if (next === '$') {
      text += '$';
      i += 2;
      continue;
    }
    let ref: string | null = null;
    let width = 0;
    const braced = /^\{([A-Za-z0-9_]+)\}/.exec(replacement.slice(i + 1));
    const digits = /^[0-9]+/.exec(replacement.slice(i + 1));
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(replacement.slice(i + 1));
    if (braced !== null) [ref, width] = [braced[1] as string, braced[0].length];
    else if (digits !== null) [ref, width] = [digits[0], digits[0].length];
    else if (name !== null) [ref, width] = [name[0], name[0].length];
    if (ref === null) {
      text += '$';
      i += 1;
      continue;
    }
    const numbered = /^[0-9]+$/.test(ref);
    if (numbered ? Number(ref) > search.groupCount : !search.groupNames.has(ref)) {
      return refuse(
        pick(
          language,
          `sd: 置換文字列の $${ref} に当たるグループがパターンにありません。$$ で $ そのものを書けます。`,
          `sd: the replacement refers to group $${ref}, which the pattern does not have; write $$ for a literal $.`,
        ),
      );
    }
    flush();
    parts.push({ kind: 'group', ref: numbered ? Number(ref) : ref });
    i += 1 + width;
  }
  flush();
  return parts;
}

/** The replacement text for one match. */
export function expandReplacement(parts: readonly ReplacementPart[], match: SdMatch): string {
  let out = '';
  for (const part of parts) {
    if (part.kind === 'text') out += part.text;
    else out += (typeof part.ref === 'number' ? match.groups[part.ref] : match.named[part.ref]) ?? '';
  }
  return out;
}

/** `text` with every match replaced, and how many there were. */
export function replaceAllMatches(text: string, search: SdSearch, parts: readonly ReplacementPart[]): { text: string; count: number } {
  const matches = findMatches(text, search);
  if (matches.length === 0) return { text, count: 0 };
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += text.slice(at, m.index) + expandReplacement(parts, m);
    at = m.end;
  }
  return { text: out + text.slice(at), count: matches.length };
}
