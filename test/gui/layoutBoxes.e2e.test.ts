/**
 * The main screen's element boxes, measured in headless Chromium against a real `fuseforks-cli gui` on the example
 * village (`fuseforks-cli init`), at 1280×720 and 1920×1080, in English and Japanese: every servant card shows its
 * whole name with every control inside the card; the title bar and the status bar fit their width with every item
 * (the version label included) whole and on one line; the pane heads' buttons and labels (一括 included) stay on one
 * line inside their pane; the chat's "clear the view" link and its hint are separate boxes; the chat input's
 * placeholder fits. Screenshots of each combination go to test-output/screenshots/. Fails on any page error or
 * console.error.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { clippedPlaceholdersOf, HAS_CHROMIUM, PAGE_CHECKS, ready, shotPath, tid } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({ village: 'init' });
let page: Page;
beforeAll(() => {
  ({ page } = suite);
});

/**
 * In-page measurement (a string body: the tests are type-checked without the DOM lib). Returns one line per
 * problem: an item outside its container's box, an item whose text is cut (scrollWidth beyond its box), an item
 * whose text breaks onto a second line, a container that overflows its own width.
 */
const MEASURE = `(() => {
  const problems = [];
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const label = (el) => (el.getAttribute('data-testid') || el.className || el.tagName) + ' "' + (el.textContent || '').trim().slice(0, 30) + '"';
  // Lines of the longest-wrapped text node (each node on its own: a badge beside a name sits at another top).
  const lines = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let most = 0;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.textContent.trim() === '') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      most = Math.max(most, tops.size);
    }
    return most;
  };
  const inside = (item, box, what) => {
    const r = item.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
      problems.push(label(item) + ' is outside its ' + what + ' (' + Math.round(r.left) + '..' + Math.round(r.right) + ' in ' + Math.round(box.left) + '..' + Math.round(box.right) + ')');
    }
  };
  const whole = (item) => {
    if (item.scrollWidth > item.clientWidth + 1 && getComputedStyle(item).display !== 'inline') problems.push(label(item) + ' is cut (' + item.scrollWidth + ' > ' + item.clientWidth + ')');
    if (item.getBoundingClientRect().width < 1) problems.push(label(item) + ' is 0 px wide');
  };
  const oneLine = (item) => {
    if (item.tagName === 'SELECT' || item.tagName === 'INPUT' || item.tagName === 'TEXTAREA') return;
    const n = lines(item);
    if (n > 1) problems.push(label(item) + ' breaks onto ' + n + ' lines');
  };
  const bar = (selector) => {
    for (const el of document.querySelectorAll(selector)) {
      if (el.scrollWidth > el.clientWidth + 1) problems.push(selector + ' overflows (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
      const box = el.getBoundingClientRect();
      for (const item of el.children) {
        if (!visible(item) || item.classList.contains('spacer')) continue;
        inside(item, box, selector);
        whole(item);
        oneLine(item);
      }
    }
  };
  bar('.titlebar');
  bar('.statusbar');
  for (const card of document.querySelectorAll('.card')) {
    const box = card.getBoundingClientRect();
    for (const item of card.querySelectorAll('.card-row > *, .card-row .switch-label > span')) {
      if (!visible(item)) continue;
      inside(item, box, 'card');
      whole(item);
      oneLine(item);
    }
  }
  for (const pane of document.querySelectorAll('.pane')) {
    const box = pane.getBoundingClientRect();
    for (const item of pane.querySelectorAll(':scope > .pane-head > *')) {
      if (!visible(item)) continue;
      inside(item, box, 'pane');
      whole(item);
      oneLine(item);
    }
  }
  for (const item of document.querySelectorAll('.bottom-tabs button, .chat-input button')) {
    if (!visible(item)) continue;
    whole(item);
    oneLine(item);
  }
  return problems;
})()`;

/** The boxes of the chat's clear link and its hint: separate, with room between them or on separate lines. */
const CLEAR_BOXES = `(() => {
  const link = document.querySelector('[data-testid="chat-clear-view"]').getBoundingClientRect();
  const hint = (document.querySelector('[data-testid="chat-clear-hint"]') ?? document.querySelector('[data-testid="chat-clear-view"] + .hint')).getBoundingClientRect();
  return { linkRight: link.right, linkBottom: link.bottom, hintLeft: hint.left, hintTop: hint.top };
})()`;

/** Placeholders wider than their textarea's first line (textareas too, unlike PAGE_CHECKS' one-line inputs). */
const CLIPPED_TEXTAREA = clippedPlaceholdersOf('textarea[placeholder]');

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

describe.skipIf(!HAS_CHROMIUM)(`the main screen's boxes${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  for (const lang of ['en', 'ja'] as const) {
    for (const size of SIZES) {
      it(`${size.width}×${size.height} in ${lang}: whole names, controls inside cards, bars that fit`, async () => {
        await page.setViewportSize(size);
        await page.evaluate(`localStorage.setItem('fuseforks.lang', '${lang}')`);
        await page.reload();
        await ready(page);
        await page.click(`${tid('agent-card-front')} .avatar`);
        await page.waitForSelector(tid('chat-clear-view'));
        await page.screenshot({ path: shotPath(`layout-${size.width}x${size.height}-${lang}.png`) });
        expect((await page.evaluate<string[]>(MEASURE)).join('\n')).toBe('');
        expect((await page.evaluate<string[]>(CLIPPED_TEXTAREA)).join('\n')).toBe('');
        expect(await page.evaluate<string[]>(PAGE_CHECKS.clippedPlaceholders)).toEqual([]);
        const clear = await page.evaluate<{ linkRight: number; linkBottom: number; hintLeft: number; hintTop: number }>(CLEAR_BOXES);
        expect(clear.hintLeft >= clear.linkRight + 4 || clear.hintTop >= clear.linkBottom, JSON.stringify(clear)).toBe(true);
        // One word for a servant that is up (稼働中), wherever it is counted.
        if (lang === 'ja') {
          await expect(page.textContent(tid('status-running'))).resolves.toContain('稼働中');
          await expect(page.textContent(tid('running-count'))).resolves.toContain('稼働中');
        }
        await expect(page.isVisible(tid('app-version'))).resolves.toBe(true);
        await expect(page.textContent(tid('app-version'))).resolves.toMatch(/\d+\.\d+\.\d+/);
      }, 90_000);
    }
  }
});
