/**
 * The price table is fetched only when a person asks: a static check over src/ that nothing but the pricing facet
 * calls the fetch, that the facet's fetch is called only from the faces a person drives (the CLI command and the
 * GUI route), and that the pricing code owns no timer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|vue)$/.test(e.name) ? [path] : [];
  });
}
const files = sources(join(ROOT, 'src')).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
const callers = (pattern: RegExp): string[] => files.filter((f) => pattern.test(f.text)).map((f) => f.path).sort();

describe('pricing fetches only on request', () => {
  it('only the pricing facet calls the table fetch', () => {
    expect(callers(/fetchPriceTable\(/)).toEqual(['src/host/pricing/priceFetch.ts', 'src/host/pricing/pricingFacet.ts']);
  });

  it('the facet fetch is reached only from the pricing command and the GUI route a click calls', () => {
    expect(callers(/pricing\.fetch\(/)).toEqual(['src/cli/manage/pricing.ts', 'src/gui/server/designRoutes.ts']);
    expect(callers(/api\\?\/pricing\\?\/fetch/)).toEqual(['src/gui/client/components/TemplateRates.vue', 'src/gui/server/designRoutes.ts']);
  });

  it('the pricing code owns no timer', () => {
    for (const f of files.filter((x) => x.path.startsWith('src/host/pricing/') || x.path.includes('priceTable'))) {
      expect(f.text, f.path).not.toMatch(/setInterval|setTimeout\(/);
    }
  });
});
