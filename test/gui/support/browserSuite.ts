/**
 * One headless Debian Chromium per test file (playwright-core drives /usr/bin/chromium; nothing is downloaded),
 * watching every page it opens for the whole run: an uncaught page error or a `console.error` fails the test it
 * happened in (`assertClean` in afterEach). A test that provokes an HTTP error on purpose (a refused save) says
 * so with `allowHttpError(status)`, which Chromium reports as "Failed to load resource … status of N".
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { request, ROOT, waitBoot } from './guiChild.js';

/** Debian's Chromium; the browser suites skip (with this reason) when it is absent. */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** A launched browser and what its pages reported. */
export interface BrowserRun {
  context: BrowserContext;
  /** Page errors and console errors not allowed by the running test. */
  readonly errors: string[];
  /** Allows Chromium's console line for HTTP responses with `status` until the end of the current test. */
  allowHttpError(status: number): void;
  /** A new page in the same browser (watched like every other page). */
  page(): Promise<Page>;
  /** Fails when anything was reported since the last call; then clears the allowances. */
  assertClean(): void;
  close(): Promise<void>;
}

/**
 * Where a screenshot goes: test-output/screenshots/ on every run (ignored by git); docs/screenshots/ (what the
 * README shows) with `UPDATE_SCREENSHOTS=1`.
 */
export function shotPath(name: string): string {
  const dir = join(ROOT, process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-output/screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/** Launches Chromium with a fresh profile. */
export async function launchBrowser(options: { locale?: string; colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserRun> {
  const profile = mkdtempSync(join(tmpdir(), 'ff-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 880 },
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors: string[] = [];
  let allowed: number[] = [];
  const watch = (page: Page): void => {
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      const status = /the server responded with a status of (\d{3})/.exec(text);
      if (status !== null && allowed.includes(Number(status[1]))) return;
      errors.push(`console.error: ${text}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    errors,
    allowHttpError(status) {
      allowed.push(status);
    },
    page: () => context.newPage(),
    assertClean() {
      const seen = errors.splice(0);
      allowed = [];
      expect(seen, 'the page reported errors').toEqual([]);
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** `[data-testid="…"]`. */
export const tid = (testId: string): string => `[data-testid="${testId}"]`;

/** Waits for the main screen with the boot overlay gone. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector(tid('main'));
  await page.waitForSelector(tid('boot-overlay'), { state: 'detached' });
}

/** Whether the page holds a session key (it traded a ticket); string body: the tests have no DOM lib. */
export const HAS_SESSION = "localStorage.getItem('fuseforks.session') !== null";

/**
 * Opens the GUI in English (device-local choice) and waits until it is ready. `url` is a single-use URL
 * (`GuiChild.url`); the page trades its ticket before the reload that sets the language.
 */
export async function openGui(page: Page, url: string, lang: 'en' | 'ja' = 'en'): Promise<void> {
  await page.goto(url);
  await until(() => page.evaluate<boolean>(HAS_SESSION), 'the page traded its ticket for a session');
  // String bodies: the tests are type-checked without the DOM lib.
  await page.evaluate(`localStorage.setItem('fuseforks.lang', '${lang}')`);
  await page.reload();
  await ready(page);
}

/**
 * Polls `check` (every 50 ms, up to 30 s: a busy machine is slow, never wrong) and asserts it came true. A check
 * that throws (a file not written yet) counts as not yet.
 */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  const attempt = async (): Promise<boolean> => {
    try {
      return await check();
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 600; i += 1) {
    if (await attempt()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await check(), what).toBe(true);
}

/**
 * A JSON call to a GUI's API with its launch token (status 200 expected unless `status` says otherwise). The
 * first call waits until the village has booted.
 */
export function guiApi(gui: { port: number; token: string }) {
  let booted: Promise<unknown> | null = null;
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
    booted ??= waitBoot(gui.port, gui.token);
    await booted;
    const res = await request(gui.port, method, path, { headers: { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` }, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    return res.body as T;
  };
}

/** A page script listing the visible `selector` fields whose placeholder is wider than the room inside them. */
export function clippedPlaceholdersOf(selector: string): string {
  return `(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    return [...document.querySelectorAll(${JSON.stringify(selector)})]
      .filter((el) => el.placeholder !== '' && el.getClientRects().length > 0)
      .filter((el) => {
        const cs = getComputedStyle(el);
        ctx.font = cs.font;
        const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return ctx.measureText(el.placeholder).width > room + 1;
      })
      .map((el) => el.placeholder + ' (' + el.clientWidth + 'px)');
  })()`;
}

/** In-page checks shared by the suites (string bodies: the tests are type-checked without the DOM lib). */
export const PAGE_CHECKS = {
  /** Visible form controls without an accessible name (no label, aria-label or aria-labelledby). */
  unlabelled: `[...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && el.getClientRects().length > 0)
    .filter((el) => !(el.labels && el.labels.length > 0) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => el.outerHTML.slice(0, 160))`,
  /** Visible one-line inputs whose placeholder is wider than the room inside them. */
  clippedPlaceholders: clippedPlaceholdersOf('input[placeholder]'),
  /** The focused element's test id and tag. */
  focused: `(() => { const el = document.activeElement; return el ? (el.getAttribute('data-testid') ?? '') + '|' + el.tagName.toLowerCase() : ''; })()`,
};

/** Closes every toast (screenshots for the docs show the screen, not the last save's notice). */
export async function clearToasts(page: Page): Promise<void> {
  for (const close of await page.locator('.toast button').all()) await close.click().catch(() => undefined);
  await page.waitForSelector('.toast', { state: 'detached' });
}
