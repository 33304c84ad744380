/**
 * `fuseforks-cli pricing` (built binary) against a loopback price table: without flags it fetches nothing; --url sets
 * the shelf source; --fetch prices the templates the table names, with its date, in world.json; while another
 * process holds the village the source still reads and a change is refused (exit 4, nothing fetched or written).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPriceTableServer, type PriceTableServer } from '../support/priceTableServer.js';
import { exampleVillage, holdVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();
let table: PriceTableServer;
beforeAll(async () => {
  table = await startPriceTableServer();
});
afterAll(async () => {
  await table.close();
});

/** The example village with its first template's model renamed to one the sample table prices. */
function village(): string {
  const dir = exampleVillage(temps);
  const file = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(file, 'utf8')) as { modelTemplates: Array<Record<string, unknown>> };
  world.modelTemplates[0]!.model = 'm-A';
  writeFileSync(file, JSON.stringify(world, null, 2));
  return dir;
}
const templates = (dir: string): Array<Record<string, unknown>> => (JSON.parse(readFileSync(join(dir, 'workspace/world.json'), 'utf8')) as { modelTemplates: Array<Record<string, unknown>> }).modelTemplates;

describe('pricing command (built binary)', () => {
  it('shows no source, sets one, and --fetch prices the named template with the table date', async () => {
    const dir = village();
    const shown = await runCli(['pricing', '-d', dir]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('no source set');
    const fetched = await runCli(['pricing', '-d', dir, '--url', table.url, '--fetch', '--json']);
    expect(fetched.code, fetched.stderr).toBe(0);
    const out = JSON.parse(fetched.stdout) as { source: { url: string }; fetch: { asOf: string; applied: Array<{ model: string }>; dropped: number } };
    expect(out.source.url).toBe(table.url);
    expect(out.fetch).toMatchObject({ asOf: '2026-08-18', dropped: 1, applied: [{ model: 'm-A' }] });
    expect(templates(dir)[0]).toMatchObject({ model: 'm-A', inputPerMtok: 3, outputPerMtok: 15, cacheWrite1hPerMtok: 6, pricingAsOf: '2026-08-18' });
    expect(JSON.parse(readFileSync(join(dir, 'pricing.json'), 'utf8'))).toEqual({ url: table.url });
    expect(table.requests).toHaveLength(1);
  });

  it('a held village: the source reads, --fetch is refused with exit 4 and nothing is fetched', async () => {
    const dir = village();
    writeFileSync(join(dir, 'pricing.json'), JSON.stringify({ url: table.url }));
    const before = table.requests.length;
    const holder = await holdVillage(dir);
    try {
      const refused = await runCli(['pricing', '-d', dir, '--fetch']);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('[LOCK_HELD] pricing changes this village');
      const status = await runCli(['pricing', '-d', dir]);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toBe(`price table: ${table.url}\n`);
    } finally {
      await holder.release();
    }
    expect(table.requests.length).toBe(before);
    expect(templates(dir)[0]!.inputPerMtok ?? null).toBeNull();
  });

  it('a refused URL says why (exit 1, PRICING_FETCH) and writes no pricing.json', async () => {
    const dir = village();
    const refused = await runCli(['pricing', '-d', dir, '--url', 'http://example.com/p.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[PRICING_FETCH]');
    expect(refused.stderr).toContain('https://');
    expect(() => readFileSync(join(dir, 'pricing.json'))).toThrow();
  });
});
