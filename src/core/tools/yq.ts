/**
 * `yq {path, op: get|set|remove, key, value?, apply?}`: reads or changes one key of a `.json` or `.toml` file in
 * the work folder by key path (`a.b[0].c`). Edits keep the file's comments, key order, indentation and newline
 * style; `set`/`remove` show the diff unless `apply: true`, and every edit is checked by parsing the result back
 * before anything is written. Never creates a file.
 */
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir, shownPath } from './confinement.js';
import { diffTooLong, MAX_DIFF_CHARS, readEditable, unifiedDiff, writeEdited } from './editPreview.js';
import { locate, parseKeyPath, sameValue, settable, showKeyPath, type KeyStep } from './keyPath.js';
import { capOutput, missingArg, optBool, optString, pick, refuse } from './toolText.js';
import { jsonEditor, REMOVE, tomlEditor, type DocEditor, type EditValue } from './yqEditors.js';

/** The ops `yq` accepts. */
export const YQ_OPS = ['get', 'set', 'remove'] as const;
type YqOp = (typeof YQ_OPS)[number];

function editorFor(path: string): DocEditor | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.json')) return jsonEditor;
  if (lower.endsWith('.toml')) return tomlEditor;
  return null;
}

/** JSON text of a value for the model (dates as ISO strings, big integers as digits). */
function showValue(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) ?? 'null';
}

/** The `yq` tool. */
export const yqTool: AgentTool = {
  name: 'yq',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    return {
      name: 'yq',
      description: pick(
        p.language,
        `作業フォルダ内の .json / .toml の値をキーパス（例 a.b[0].c）で get / set / remove します。コメント・キーの順・インデント・改行コードは保たれます。set / remove は apply: true が無ければ差分を見せるだけです（差分は ${MAX_DIFF_CHARS} 文字まで）。新しいファイルは作りません。`,
        `Get, set or remove a value in a .json or .toml file of the work folder by key path (e.g. a.b[0].c). Comments, key order, indentation and newline style are kept. set / remove only show the diff unless apply: true (diffs up to ${MAX_DIFF_CHARS} chars). Never creates files.`,
      ),
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: ja ? '.json か .toml のファイル（相対パス）' : '.json or .toml file, relative path' },
          op: { type: 'string', enum: [...YQ_OPS], description: ja ? '操作' : 'operation' },
          key: { type: 'string', description: ja ? 'キーパス（a.b[0].c、ドットを含む名前は ["a.b"]）' : 'key path (a.b[0].c; ["a.b"] for names with dots)' },
          value: { description: ja ? 'set で書く値（JSON の値）' : 'the value to write for set (a JSON value)' },
          apply: { type: 'boolean', description: ja ? 'true で書き込む（既定はプレビュー）' : 'true writes the change (default: preview only)' },
        },
        required: ['path', 'op', 'key'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const rel = optString(args, 'path');
    if (rel === undefined || rel === '') return missingArg(lang, 'yq', 'path');
    const op = optString(args, 'op');
    if (op === undefined || !(YQ_OPS as readonly string[]).includes(op)) {
      return refuse(pick(lang, 'yq: op は get / set / remove のどれかです。', 'yq: `op` must be one of get, set, remove.'));
    }
    const key = optString(args, 'key');
    if (key === undefined || key === '') return missingArg(lang, 'yq', 'key');
    const steps = parseKeyPath(key);
    if (!Array.isArray(steps)) return refuse(pick(lang, `yq: キーパスを読めません（${steps.error}）。`, `yq: cannot read the key path (${steps.error}).`));
    if (op === 'set' && !('value' in args)) return refuse(pick(lang, 'yq: set には value が必要です。', 'yq: set needs a `value`.'));
    const editor = editorFor(rel);
    if (editor === null) return refuse(pick(lang, 'yq: 扱えるのは .json と .toml だけです。', 'yq: only .json and .toml files are supported.'));

    const root = await resolveInWorkDir(ctx.workDir, '', lang);
    if (!root.ok) return refuse(root.refusal);
    const where = await resolveInWorkDir(ctx.workDir, rel, lang);
    if (!where.ok) return refuse(where.refusal);
    const file = await readEditable(where.path, shownPath(root.path, where.path), 'yq', lang);
    if (!('text' in file)) return file;
    const parsed = await editor.parse(file.text);
    if ('error' in parsed) {
      return refuse(pick(lang, `yq: ${file.shown} を ${editor.format} として読めません: ${parsed.error}`, `yq: ${file.shown} is not valid ${editor.format}: ${parsed.error}`));
    }
    const shownKey = showKeyPath(steps);
    const place = (op as YqOp) === 'set' ? settable(parsed.value, steps) : locate(parsed.value, steps);
    if (place.kind !== 'found') {
      const at = showKeyPath(steps.slice(0, place.depth + 1));
      return refuse(
        place.kind === 'missing'
          ? pick(lang, `yq: ${file.shown} に ${at} はありません。`, `yq: ${file.shown} has no ${at}.`)
          : pick(lang, `yq: ${at} の手前が${place.expected === 'array' ? '配列' : '表'}ではありません。`, `yq: the value before ${at} is not ${place.expected === 'array' ? 'an array' : 'a table'}.`),
      );
    }
    if (op === 'get') return capOutput(`${shownKey} = ${showValue(place.value)}`, lang);
    if (steps.length === 0) return refuse(pick(lang, 'yq: 文書全体は書き換えられません。', 'yq: the whole document cannot be replaced.'));

    const value: EditValue = op === 'remove' ? REMOVE : args['value'];
    const edited = await editor.edit(file.text, steps, value);
    if ('error' in edited) return refuse(pick(lang, `yq: 書き換えられません: ${edited.error}`, `yq: cannot make this edit: ${edited.error}`));
    const check = await verify(editor, edited.text, steps, value);
    if (check !== null) return refuse(pick(lang, `yq: 書き換えの結果を確かめられませんでした（${check}）。何も書いていません。`, `yq: the edited file did not check out (${check}); nothing was written.`));
    if (edited.text === file.text) return pick(lang, `yq: ${shownKey} はすでにその値です。何も変えていません。`, `yq: ${shownKey} already has that value; nothing was changed.`);

    const diff = unifiedDiff(file.shown, file.text, edited.text);
    if (diff.length > MAX_DIFF_CHARS) return diffTooLong('yq', diff.length, lang);
    if (!optBool(args, 'apply', false)) {
      return `${pick(lang, `プレビュー（未適用）: ${file.shown} の ${shownKey} を${op === 'set' ? '設定' : '削除'}します。書き込むには apply: true で呼んでください。`, `Preview (not applied): ${op} ${shownKey} in ${file.shown}. Call again with apply: true to write it.`)}\n${diff}`;
    }
    const failed = await writeEdited(file, edited.text, 'yq', lang);
    if (failed !== null) return failed;
    return `${pick(lang, `適用しました: ${file.shown} の ${shownKey}。`, `Applied: ${op} ${shownKey} in ${file.shown}.`)}\n${diff}`;
  },
};

/** Parses the edited text back and checks the key now holds the value (or is gone); null = fine. */
async function verify(editor: DocEditor, text: string, steps: readonly KeyStep[], value: EditValue): Promise<string | null> {
  const reparsed = await editor.parse(text);
  if ('error' in reparsed) return reparsed.error;
  const found = locate(reparsed.value, steps);
  if (value === REMOVE) {
    // Removing an array element shifts the next one into its place, so only a key must be gone.
    return typeof steps.at(-1) === 'string' && found.kind === 'found' ? 'the key is still there' : null;
  }
  if (found.kind !== 'found') return 'the key is missing after the edit';
  return sameValue(found.value, value) ? null : 'the value reads back differently';
}
