/**
 * The Markdown heading index of `rag`, pure: headings of one text (ATX `#` headings and setext `===`/`---`
 * underlines, never inside fenced code), the section a line lies in, a section's line range, and resolving a
 * heading name the model gives (exact, then ignoring case, then substring; more than one hit is ambiguous).
 */

/** One heading: level 1–6, its text, its 1-based line. */
export interface Heading {
  level: number;
  title: string;
  line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

/** The lines of a text, without their line ends (`\r\n` or `\n`). */
export function textLines(text: string): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Every heading of `text`, in order. */
export function parseHeadings(text: string): Heading[] {
  const lines = textLines(text);
  const out: Heading[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      continue;
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx !== null) {
      out.push({ level: (atx[1] as string).length, title: (atx[2] ?? '').trim(), line: i + 1 });
      continue;
    }
    const next = lines[i + 1];
    const under = next === undefined ? null : SETEXT.exec(next);
    // A setext underline needs a plain paragraph line above it (not blank, not a list or quote marker line).
    if (under !== null && line.trim() !== '' && !/^ {0,3}(?:[-*+>]|\d+[.)])\s/.test(line) && !/^ {4}/.test(line)) {
      out.push({ level: (under[1] as string).startsWith('=') ? 1 : 2, title: line.trim(), line: i + 1 });
      i += 1;
    }
  }
  return out;
}

/** Titles from the top-level heading down to the one that contains `line` (1-based); empty before any heading. */
export function sectionPathForLine(headings: readonly Heading[], line: number): string[] {
  const stack: Heading[] = [];
  for (const h of headings) {
    if (h.line > line) break;
    while (stack.length > 0 && (stack[stack.length - 1] as Heading).level >= h.level) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.title);
}

/** 0-based [start, end) line range of heading `index`'s section: to the next heading of the same or a higher level. */
export function sectionBounds(headings: readonly Heading[], index: number, lineCount: number): [number, number] {
  const own = headings[index] as Heading;
  let end = lineCount;
  for (let i = index + 1; i < headings.length; i += 1) {
    const h = headings[i] as Heading;
    if (h.level <= own.level) {
      end = h.line - 1;
      break;
    }
  }
  return [own.line - 1, end];
}

/** How a section name was matched. */
export type SectionMatch = 'exact' | 'case-insensitive' | 'substring';

export type SectionResolution =
  | { kind: 'found'; index: number; match: SectionMatch }
  | { kind: 'ambiguous'; indexes: number[] }
  | { kind: 'not_found' };

/**
 * Finds the heading named `query`. A query with ` > ` names a path (`Setup > Linux`): its last part is matched
 * and the earlier parts must be the heading's ancestors, in order (same three-step matching).
 */
export function resolveSection(headings: readonly Heading[], query: string): SectionResolution {
  const parts = query.split('>').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) return { kind: 'not_found' };
  const tests: Array<[SectionMatch, (title: string, want: string) => boolean]> = [
    ['exact', (t, w) => t === w],
    ['case-insensitive', (t, w) => t.toLowerCase() === w.toLowerCase()],
    ['substring', (t, w) => t.toLowerCase().includes(w.toLowerCase())],
  ];
  for (const [match, test] of tests) {
    const hits: number[] = [];
    headings.forEach((h, index) => {
      if (!test(h.title, parts[parts.length - 1] as string)) return;
      const path = sectionPathForLine(headings, h.line).slice(0, -1);
      let at = 0;
      for (const ancestor of path) if (at < parts.length - 1 && test(ancestor, parts[at] as string)) at += 1;
      if (at === parts.length - 1) hits.push(index);
    });
    if (hits.length === 1) return { kind: 'found', index: hits[0] as number, match };
    if (hits.length > 1) return { kind: 'ambiguous', indexes: hits };
  }
  return { kind: 'not_found' };
}
