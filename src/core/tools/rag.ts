/**
 * `rag {op: outline|search|read, path?, pattern?, section?, case_insensitive?}`: a Markdown heading index over the
 * folders a person declared in the agent's `ragSources`. Read-only (nothing here writes), shown only when at
 * least one declared folder exists, confined to those folders. Output stops at file or match boundaries and a
 * section is never cut: one over the cap is refused with its size and a way to narrow.
 */
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { resolveSection, sectionBounds, sectionPathForLine, textLines, type Heading } from './docIndex.js';
import { compilePattern, MAX_LINE_CHARS } from './grep.js';
import { buildRagIndex, type RagIndex, type RagTarget } from './ragIndex.js';
import { checkRoots, resolveInRoots, type CheckedRoots } from './ragRoots.js';
import { clip, MAX_OUTPUT_CHARS, missingArg, optBool, optString, pick, refuse } from './toolText.js';
import type { Language } from '../world/types.js';

/** The ops `rag` accepts. */
export const RAG_OPS = ['outline', 'search', 'read'] as const;

function invalidNote(roots: CheckedRoots, lang: Language): string {
  if (roots.invalid.length === 0) return '';
  return pick(
    lang,
    `\n（宣言された ${roots.invalid.length} 件のフォルダが見つからないため対象外: ${roots.invalid.join(' / ')}。ユーザーにパスの確認を頼んでください）`,
    `\n(${roots.invalid.length} declared folder(s) not found and skipped: ${roots.invalid.join(' / ')}; ask the user to check them)`,
  );
}

/** Targets for outline/search: the resolved `path`, or every valid root. */
async function targetsFor(roots: CheckedRoots, path: string | undefined, lang: Language): Promise<RagTarget[] | ToolReply> {
  if (path === undefined || path === '') return roots.valid.map((r) => ({ root: r.real, start: r.real, startRel: '' }));
  const hit = await resolveInRoots(roots.valid, path, lang);
  if (!hit.ok) return refuse(hit.refusal);
  return [{ root: hit.root.real, start: hit.path, startRel: hit.rel }];
}

function declaredOf(roots: CheckedRoots, real: string): string {
  return roots.valid.find((r) => r.real === real)?.declared ?? real;
}

function renderTree(headings: readonly Heading[], lang: Language): string {
  return headings.map((h) => `${'  '.repeat(h.level - 1)}${'#'.repeat(h.level)} ${h.title} ${pick(lang, `（${h.line} 行目）`, `(line ${h.line})`)}`).join('\n');
}

function outline(index: RagIndex, roots: CheckedRoots, lang: Language): string {
  let out = '';
  let skipped = 0;
  let shown = 0;
  let lastRoot = '';
  for (const file of index.files) {
    const head = file.root === lastRoot ? '' : `# ${declaredOf(roots, file.root)}\n`;
    const body = file.skip !== undefined
      ? pick(lang, `（読めません: ${file.skip}）`, `(not read: ${file.skip})`)
      : file.headings.length === 0 ? pick(lang, '（見出しなし）', '(no headings)') : renderTree(file.headings, lang);
    const block = `${head}## ${file.rel}\n${body}\n`;
    // Only whole files: a half heading tree would read as "there is nothing more".
    if (out.length + block.length > MAX_OUTPUT_CHARS - 400) {
      skipped += 1;
      continue;
    }
    out += block;
    lastRoot = file.root;
    shown += 1;
  }
  if (shown === 0 && skipped === 0) out += pick(lang, 'Markdown ファイルがありません。\n', 'No Markdown files found.\n');
  if (skipped > 0) out += pick(lang, `（上限のため残り ${skipped} ファイルは省略。path で絞ってください）\n`, `(${skipped} more file(s) not shown at the output limit; narrow with path)\n`);
  if (index.truncated) out += pick(lang, '（ファイル数の上限で走査を止めました）\n', '(the walk stopped at the file limit)\n');
  return out.trimEnd() + invalidNote(roots, lang);
}

function search(index: RagIndex, roots: CheckedRoots, regex: RegExp, lang: Language): string {
  let out = '';
  let total = 0;
  let hidden = 0;
  let lastRoot = '';
  for (const file of index.files) {
    if (file.text === undefined) continue;
    const lines = textLines(file.text);
    lines.forEach((line, i) => {
      if (!regex.test(line)) return;
      total += 1;
      const section = sectionPathForLine(file.headings, i + 1);
      const head = file.root === lastRoot ? '' : `# ${declaredOf(roots, file.root)}\n`;
      const entry = `${head}${file.rel}:${i + 1}: ${clip(line, MAX_LINE_CHARS)}${section.length > 0 ? `\n    § ${section.join(' > ')}` : ''}\n`;
      if (out.length + entry.length > MAX_OUTPUT_CHARS - 400) {
        hidden += 1;
        return;
      }
      out += entry;
      lastRoot = file.root;
    });
  }
  const headLine = pick(lang, `${total} 件一致`, `${total} matches`);
  const notes = hidden > 0 ? pick(lang, `（上限のため ${hidden} 件は省略。path やパターンで絞ってください）\n`, `(${hidden} more not shown at the output limit; narrow with path or the pattern)\n`) : '';
  const walkNote = index.truncated ? pick(lang, '（ファイル数の上限で走査を止めました）\n', '(the walk stopped at the file limit)\n') : '';
  return `${headLine}${total > 0 ? ':' : ''}\n${out}${notes}${walkNote}`.trimEnd() + invalidNote(roots, lang);
}

async function read(roots: CheckedRoots, path: string, section: string | undefined, lang: Language): Promise<string | ToolReply> {
  const hit = await resolveInRoots(roots.valid, path, lang);
  if (!hit.ok) return refuse(hit.refusal);
  const index = await buildRagIndex({ targets: [{ root: hit.root.real, start: hit.path, startRel: hit.rel }], withText: true });
  const file = index.files[0];
  if (file === undefined) return refuse(pick(lang, `${path} はファイルではありません。outline で確かめてください。`, `${path} is not a file; check with outline.`));
  if (file.text === undefined) return refuse(pick(lang, `${path} は読めません（${file.skip ?? 'unreadable'}）。`, `${path} cannot be read (${file.skip ?? 'unreadable'}).`));
  const lines = textLines(file.text);
  if (section === undefined || section.trim() === '') {
    if (file.text.length > MAX_OUTPUT_CHARS) {
      return refuse(pick(lang, `${file.rel} は ${lines.length} 行・${file.text.length} 文字で上限 ${MAX_OUTPUT_CHARS} を超えます。途中で切らずに断ります。outline で見出しを見て section を指定してください。`, `${file.rel} has ${lines.length} lines, ${file.text.length} chars: over the ${MAX_OUTPUT_CHARS}-char limit, and it is never cut. Use outline and name a section.`));
    }
    return `${file.rel}\n\n${file.text}`;
  }
  const found = resolveSection(file.headings, section);
  if (found.kind === 'not_found') return refuse(pick(lang, `${file.rel} に「${section}」という節はありません。outline で見出しを確かめてください。`, `${file.rel} has no section "${section}"; check the headings with outline.`));
  if (found.kind === 'ambiguous') {
    const names = found.indexes.map((i) => sectionPathForLine(file.headings, file.headings[i]!.line).join(' > ')).join(' / ');
    return refuse(pick(lang, `「${section}」は複数の節に当たります: ${names}。「親 > 子」の形で指定してください。`, `"${section}" matches several sections: ${names}. Name one as "Parent > Child".`));
  }
  const [start, end] = sectionBounds(file.headings, found.index, lines.length);
  const body = lines.slice(start, end).join('\n');
  const crumb = sectionPathForLine(file.headings, file.headings[found.index]!.line).join(' > ');
  if (body.length > MAX_OUTPUT_CHARS) {
    return refuse(pick(lang, `節「${crumb}」は ${end - start} 行・${body.length} 文字で上限 ${MAX_OUTPUT_CHARS} を超えます。途中で切らずに断ります。子見出しを指定するか search で絞ってください。`, `Section "${crumb}" has ${end - start} lines, ${body.length} chars: over the ${MAX_OUTPUT_CHARS}-char limit, and it is never cut. Name a child heading or narrow with search.`));
  }
  return `${file.rel} > ${crumb}\n\n${body}`;
}

/** The `rag` tool. */
export const ragTool: AgentTool = {
  name: 'rag',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec | null {
    if (checkRoots(p.ragSources ?? []).valid.length === 0) return null;
    const ja = p.language === 'ja';
    return {
      name: 'rag',
      description: pick(
        p.language,
        '宣言された資料フォルダの Markdown を見出し索引で引きます（読むだけ）。outline: ファイルと見出しの木 / search: 一致行とその行が属する節 / read: path と section で節を 1 つ読む（section 省略で全文）。',
        'Look things up in the Markdown of your declared reference folders through a heading index (read-only). outline: files and heading trees / search: matching lines with the section each lies in / read: one section by path and section (whole file without section).',
      ),
      parameters: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: [...RAG_OPS], description: ja ? '操作' : 'operation' },
          path: { type: 'string', description: ja ? '資料フォルダ内のパス（相対なら宣言フォルダから。read では必須）' : 'path in a reference folder (relative to the declared folders; required for read)' },
          pattern: { type: 'string', description: ja ? 'search の正規表現（見出しと本文の行に当てる）' : 'regex for search (matched against heading and body lines)' },
          section: { type: 'string', description: ja ? 'read する節の見出し（「親 > 子」も可）' : 'heading of the section to read ("Parent > Child" also works)' },
          case_insensitive: { type: 'boolean', description: ja ? 'search で大文字小文字を区別しない' : 'ignore case in search' },
        },
        required: ['op'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    const op = optString(args, 'op');
    if (op === undefined || !(RAG_OPS as readonly string[]).includes(op)) {
      return refuse(pick(lang, 'rag: op は outline / search / read のどれかです。', 'rag: `op` must be one of outline, search, read.'));
    }
    const roots = checkRoots(ctx.ragSources ?? []);
    if (roots.valid.length === 0) {
      return refuse(pick(lang, 'rag: 宣言された資料フォルダがありません。ユーザーに設定を頼んでください。', 'rag: no declared reference folder exists; ask the user to set one.') + invalidNote(roots, lang));
    }
    const path = optString(args, 'path');
    if (op === 'read') {
      if (path === undefined || path === '') return missingArg(lang, 'rag', 'path');
      return read(roots, path, optString(args, 'section'), lang);
    }
    let regex: RegExp | null = null;
    if (op === 'search') {
      const pattern = optString(args, 'pattern');
      if (pattern === undefined || pattern === '') return missingArg(lang, 'rag', 'pattern');
      const compiled = compilePattern(pattern, optBool(args, 'case_insensitive', false), lang);
      if (!(compiled instanceof RegExp)) return compiled;
      regex = compiled;
    }
    const targets = await targetsFor(roots, path, lang);
    if (!Array.isArray(targets)) return targets;
    const index = await buildRagIndex({ targets, withText: regex !== null }, ctx.signal);
    return regex === null ? outline(index, roots, lang) : search(index, roots, regex, lang);
  },
};
