/**
 * Tiny i18n: nested JSON dictionaries (locales/ja.json, en.json with identical key sets — a unit test enforces
 * it), `{name}` placeholders, the key itself as the fallback so a missing text is visible, never blank.
 */

/** A nested dictionary of texts. */
export type Dict = { [key: string]: string | Dict };

/** Looks up `key` (dot path) and fills `{param}` placeholders. */
export function translate(dict: Dict, key: string, params: Record<string, string | number> = {}): string {
  let node: string | Dict | undefined = dict;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return key;
    node = node[part];
  }
  if (typeof node !== 'string') return key;
  return node.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** Every leaf key (dot paths), sorted: the parity test compares these between languages. */
export function leafKeys(dict: Dict, prefix = ''): string[] {
  return Object.entries(dict)
    .flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leafKeys(v, `${prefix}${k}.`)))
    .sort();
}
