/**
 * Serves the built client (`dist/gui/client`, from `vite build`): index.html for `/`, files under it by exact
 * path, nothing outside it. Without a build, a one-line page says how to make one.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder `vite build` writes the client to, beside this module's compiled folder. */
export const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../client/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** A file to send, or null when there is none at that path. */
export interface Asset {
  body: Buffer;
  type: string;
}

const MISSING_BUILD = Buffer.from(
  '<!doctype html><meta charset="utf-8"><title>Fuseforks</title><p>The GUI client is not built. Run <code>npm run build</code>, then reopen.</p>',
);

/** Reads `urlPath` from `clientDir` (`/` → index.html); refuses anything that leaves the folder. */
export async function readAsset(clientDir: string, urlPath: string): Promise<Asset | null> {
  const rel = urlPath === '/' ? 'index.html' : decodeURIComponent(urlPath).replace(/^\/+/, '');
  const full = normalize(join(clientDir, rel));
  if (!full.startsWith(normalize(clientDir.endsWith(sep) ? clientDir : clientDir + sep))) return null;
  try {
    return { body: await readFile(full), type: TYPES[extname(full)] ?? 'application/octet-stream' };
  } catch {
    if (rel === 'index.html') return { body: MISSING_BUILD, type: TYPES['.html']! };
    return null;
  }
}
