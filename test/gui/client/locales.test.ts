import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leafKeys, translate, type Dict } from '../../../src/gui/client/lib/i18n.js';

const load = (lang: string): Dict => JSON.parse(readFileSync(new URL(`../../../src/gui/client/locales/${lang}.json`, import.meta.url), 'utf8')) as Dict;
const ja = load('ja');
const en = load('en');

describe('locales', () => {
  it('ja and en have exactly the same keys', () => {
    expect(leafKeys(ja)).toEqual(leafKeys(en));
  });

  it('no text is blank and placeholders match between languages', () => {
    for (const key of leafKeys(en)) {
      const a = translate(en, key);
      const b = translate(ja, key);
      expect(a.trim(), key).not.toBe('');
      expect(b.trim(), key).not.toBe('');
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(b), key).toEqual(names(a));
    }
  });

  it('translate fills placeholders and falls back to the key', () => {
    expect(translate(en, 'agentList.running', { running: 1, total: 2 })).toBe('1 / 2 running');
    expect(translate(en, 'no.such.key')).toBe('no.such.key');
  });

  it('every t() key used by the components exists', () => {
    const components = readdirSync(new URL('../../../src/gui/client/components/', import.meta.url)).filter((f) => f.endsWith('.vue'));
    expect(components.length).toBeGreaterThan(10);
    const files = ['App.vue', ...components.map((c) => `components/${c}`)];
    const keys = new Set(leafKeys(en));
    for (const file of files) {
      const text = readFileSync(new URL(`../../../src/gui/client/${file}`, import.meta.url), 'utf8');
      for (const m of text.matchAll(/\bt\('([a-zA-Z]+\.[a-zA-Z.]+)'/g)) expect(keys.has(m[1]!), `${file}: ${m[1]}`).toBe(true);
    }
  });
});
