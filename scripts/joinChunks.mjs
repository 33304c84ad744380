// Build helper for scripts/bundleCli.mjs: joins the chunks that one lazily loaded command part pulls in into that
// part's own file. Code splitting cuts the host layer into dozens of small chunks (each the modules one set of
// commands shares); `ask` loaded ~36 of them one after the other, and Node spends ~0.4 ms of CPU and a file read on
// every ES module. After the join, `ask` loads its part as one file.
//
// A module must still load exactly once per process (module state: the prewarmed workers, the scan pool…), so a
// chunk stays a separate, shared file when anything outside the joined part can import it: what loaded before the
// part (the CLI entry, the command's own first file), and whatever the part keeps lazy (its rarer paths: the door
// client, the world schema) — those load later by URL and must meet the same instances.
import { build } from 'esbuild';
import { dirname, relative, resolve } from 'node:path';

/** Output files statically imported from `roots` (transitively), as absolute paths. */
function staticClosure(metafile, root, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const out = metafile.outputs[relative(root, file)];
    for (const imp of out?.imports ?? []) {
      if (!imp.external && imp.kind === 'import-statement') stack.push(resolve(root, imp.path));
    }
  }
  return seen;
}

/** The output file built for the source `entryPoint` (a dynamic import target is an entry of its own). */
export function outputOf(metafile, root, entryPoint) {
  const hit = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === entryPoint);
  if (hit === undefined) throw new Error(`joinChunks: no output for ${entryPoint}`);
  return resolve(root, hit[0]);
}

/**
 * Rewrites `part` (an output file) to hold, besides itself, the chunks it loads: its static imports and the
 * dynamic imports listed in `eager` (output files it always loads at once). The static closures of `shared` (the
 * files loaded before `part`) stay shared; every other dynamic import stays lazy and keeps its closure shared.
 * `output`: the esbuild options the first build made its files with (ESM for Node, source maps, minification).
 */
export async function joinChunks({ output, metafile, root, shared, part, eager = [] }) {
  const eagerSet = new Set(eager);
  const keep = staticClosure(metafile, root, shared);
  const joined = new Set();
  const lazy = [];
  const stack = [part];
  while (stack.length > 0) {
    const file = stack.pop();
    if (joined.has(file) || keep.has(file)) continue;
    joined.add(file);
    for (const imp of metafile.outputs[relative(root, file)]?.imports ?? []) {
      if (imp.external) continue;
      const target = resolve(root, imp.path);
      if (imp.kind === 'import-statement' || eagerSet.has(target)) stack.push(target);
      else lazy.push(target);
    }
  }
  for (const file of staticClosure(metafile, root, lazy)) {
    keep.add(file);
    joined.delete(file);
  }
  joined.add(part);
  const outdir = dirname(part);
  await build({
    ...output,
    entryPoints: [part],
    outfile: part,
    allowOverwrite: true,
    packages: 'external',
    plugins: [
      {
        name: 'keep-shared-chunks',
        setup(b) {
          b.onResolve({ filter: /^\.\.?\// }, (args) => {
            const target = resolve(args.resolveDir, args.path);
            if (joined.has(target)) return undefined;
            // Shared or lazy: imported by its path relative to the joined file (same directory as before).
            return { path: `./${relative(outdir, target).split('\\').join('/')}`.replace(/^\.\/\.\.\//, '../'), external: true };
          });
        },
      },
    ],
  });
  return { joined: joined.size, shared: keep.size };
}
