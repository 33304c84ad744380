/**
 * The frame every browser suite shares: one village and one `fuseforks-cli gui` for the file, one Chromium with one
 * page, the loopback stub model when asked for, and the clean-up. Every test fails on a page error or
 * console.error reported during it (`assertClean`). Skipped by the suites themselves when Chromium is absent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { runCli } from '../../cli/support/cliProcess.js';
import { startStubLlm, type StubLlm } from '../../support/stubLlm.js';
import { guiApi, HAS_CHROMIUM, launchBrowser, openGui, type BrowserRun } from './browserSuite.js';
import { requireGuiBuild, startGui, type GuiChild } from './guiChild.js';

/** A model template on the loopback stub (no key, tools on), as the GUI's template dialog would save it. */
export function stubTemplate(baseUrl: string, id = 'stub', model = 'stub-model'): Record<string, unknown> {
  return {
    id, name: id, baseUrl, model, contextLength: 32000, temperature: null, maxOutputTokens: 1024,
    credential: 'not_required', provider: 'open_ai_compat', useTools: true, requestTimeoutSecs: 60, maxRetries: 1,
  };
}

/** How a suite's village starts. */
export interface GuiSuiteOptions {
  /** `init`: the bundled example village (`fuseforks-cli init`); `empty`: a fresh one the GUI creates. */
  village: 'init' | 'empty';
  /** Start the loopback stub model (`suite.stub`). */
  stub?: boolean;
  /** Files written by hand before the GUI opens the village. */
  beforeStart?: (dataDir: string) => void;
  /** API set-up once the village has booted, before the page opens. */
  setUp?: (suite: GuiSuite) => Promise<void>;
}

/** What the tests of a suite use. */
export interface GuiSuite {
  readonly dir: string;
  readonly gui: GuiChild;
  readonly browser: BrowserRun;
  readonly page: Page;
  readonly stub: StubLlm;
  readonly api: ReturnType<typeof guiApi>;
  /** A temp folder removed after the file (e.g. a servant's work folder). */
  tempDir(prefix: string): string;
}

/** Registers the file's hooks and returns the suite (its fields are set once beforeAll ran). */
export function useGuiSuite(options: GuiSuiteOptions): GuiSuite {
  const temps: string[] = [];
  const parts: Partial<Record<keyof GuiSuite, unknown>> = {};
  const suite = {
    tempDir(prefix: string): string {
      const d = mkdtempSync(join(tmpdir(), prefix));
      temps.push(d);
      return d;
    },
  } as GuiSuite;
  for (const key of ['dir', 'gui', 'browser', 'page', 'stub', 'api'] as const) {
    Object.defineProperty(suite, key, { get: () => parts[key] });
  }

  beforeAll(async () => {
    if (!HAS_CHROMIUM) return;
    requireGuiBuild();
    if (options.stub === true) parts.stub = await startStubLlm();
    const dir = suite.tempDir('ff-gui-suite-');
    parts.dir = dir;
    if (options.village === 'init') {
      const init = await runCli(['init', '--data-dir', dir]);
      expect(init.code, init.stderr).toBe(0);
    }
    options.beforeStart?.(dir);
    const gui = await startGui(dir);
    parts.gui = gui;
    parts.api = guiApi(gui);
    await options.setUp?.(suite);
    const browser = await launchBrowser();
    parts.browser = browser;
    const page = await browser.page();
    parts.page = page;
    await openGui(page, gui.url);
  }, 180_000);

  afterEach(() => (parts.browser as BrowserRun | undefined)?.assertClean());

  afterAll(async () => {
    await (parts.page as Page | undefined)?.close();
    await (parts.browser as BrowserRun | undefined)?.close();
    await (parts.gui as GuiChild | undefined)?.stop();
    await (parts.stub as StubLlm | undefined)?.close();
    for (const d of temps) rmSync(d, { recursive: true, force: true });
  });

  return suite;
}
