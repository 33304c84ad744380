/**
 * The template dialog's rates in real Chromium on an init village, against a loopback price table: opening the
 * dialog fetches nothing; Fetch (with the URL typed once, kept on the shelf) fills the village template's rates and
 * date, Save writes them to world.json and a re-opened dialog shows them; a blank rate is saved as unset, never 0;
 * a model the table does not name changes nothing and says so. Any page error or console.error fails the test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPriceTableServer, type PriceTableServer } from '../support/priceTableServer.js';
import { HAS_CHROMIUM, tid } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({ village: 'init' });
let page: Page;
let table: PriceTableServer;
/** The init village's one template (its id and model name). */
let tpl: { id: string; model: string };
beforeAll(async () => {
  page = suite.page;
  tpl = (JSON.parse(readFileSync(join(suite.dir, 'workspace/world.json'), 'utf8')) as { modelTemplates: Array<{ id: string; model: string }> }).modelTemplates[0]!;
  table = await startPriceTableServer();
  table.answer({ body: JSON.stringify({ fetched: '2026-09-30', models: [{ key: tpl.model, input_per_mtok: 2.5, output_per_mtok: 10, cache_read_per_mtok: 0.25 }] }) });
});
afterAll(async () => {
  await table?.close();
});

const templateOnDisk = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(join(suite.dir, 'workspace/world.json'), 'utf8')) as { modelTemplates: Array<Record<string, unknown>> }).modelTemplates.find((t) => t.id === tpl.id)!;
const rate = (key: string): Promise<string> => page.inputValue(tid(`template-rate-${key}`));

async function openTemplate(): Promise<void> {
  await page.click(tid('open-templates'));
  await page.click(tid(`template-item-${tpl.id}`));
  await page.waitForSelector(tid('template-rates'));
}

describe.skipIf(!HAS_CHROMIUM)('template rates and the price table in headless Chromium', () => {
  it('Fetch fills the rates from the table, Save keeps them, a re-opened dialog shows them; blank stays unset', async () => {
    await openTemplate();
    await expect(rate('inputPerMtok')).resolves.toBe('');
    expect(table.requests).toEqual([]);
    await page.fill(tid('pricing-url'), table.url);
    await page.click(tid('pricing-fetch'));
    await page.waitForSelector(`${tid('pricing-note')}[data-ok="true"]`);
    expect(table.requests).toHaveLength(1);
    await expect(rate('inputPerMtok')).resolves.toBe('2.5');
    await expect(rate('outputPerMtok')).resolves.toBe('10');
    await expect(rate('cacheReadPerMtok')).resolves.toBe('0.25');
    await expect(rate('cacheWritePerMtok')).resolves.toBe('');
    await expect(page.inputValue(tid('template-rate-asof'))).resolves.toBe('2026-09-30');
    // Filled, not saved: world.json is unchanged until Save.
    expect(templateOnDisk().inputPerMtok ?? null).toBeNull();
    // The person clears one rate: unset, not 0.
    await page.fill(tid('template-rate-cacheReadPerMtok'), '');
    await page.press(tid('template-rate-cacheReadPerMtok'), 'Tab');
    await page.click(tid('template-save'));
    await page.waitForSelector(tid('template-saved'));
    expect(templateOnDisk()).toMatchObject({ inputPerMtok: 2.5, outputPerMtok: 10, cacheReadPerMtok: null, cacheWritePerMtok: null, pricingAsOf: '2026-09-30' });
    expect(JSON.parse(readFileSync(join(suite.dir, 'pricing.json'), 'utf8'))).toEqual({ url: table.url });
    await page.click(tid('template-close'));

    await openTemplate();
    await expect(rate('inputPerMtok')).resolves.toBe('2.5');
    await expect(rate('cacheReadPerMtok')).resolves.toBe('');
    await expect(page.inputValue(tid('pricing-url'))).resolves.toBe(table.url);
    expect(table.requests).toHaveLength(1);
    await page.click(tid('template-close'));
  });

  it('a model the table does not name: nothing changes, the note says so', async () => {
    await openTemplate();
    await page.fill(tid('template-model'), 'not-priced-anywhere');
    await page.click(tid('pricing-fetch'));
    await page.waitForSelector(`${tid('pricing-note')}[data-ok="false"]`);
    await expect(page.textContent(tid('pricing-note'))).resolves.toContain('not-priced-anywhere');
    await expect(rate('inputPerMtok')).resolves.toBe('2.5');
    await page.click(tid('template-close'));
  });
});
