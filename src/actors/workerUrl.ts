/**
 * Where the worker thread entries live. Workers are loaded by Node, not by vitest's transform, so an entry is
 * always built output: the one-file bundles `npm run build` makes (scripts/bundleWorkers.mjs), next to this module
 * when running from `dist/`, and mapped from `src/actors/*.ts` to `dist/actors/` when imported from source.
 */

/** Maps a module URL of the actor layer to a worker entry URL (`entry` = its compiled file name). Pure, for the test. */
export function workerEntryFor(moduleUrl: string, entry = 'agentWorker.bundle.cjs'): URL {
  const here = new URL(moduleUrl);
  const fromSource = /\/src\/actors\/[^/]+\.ts$/;
  if (fromSource.test(here.pathname)) {
    return new URL(here.pathname.replace(fromSource, `/dist/actors/${entry}`), here);
  }
  return new URL(`./${entry}`, here);
}

/** The agent worker entry for this installation. */
export function agentWorkerUrl(): URL {
  return workerEntryFor(import.meta.url);
}

/** The scanning pool's thread entry (scanWorker.ts) for this installation. */
export function scanWorkerUrl(): URL {
  return workerEntryFor(import.meta.url, 'scanWorker.bundle.js');
}
