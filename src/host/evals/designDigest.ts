/**
 * The digest of a village's design as an eval run saw it: SHA-256 over every design file `bake` would carry (the
 * same list) and the eval case files, path and content, in a fixed order. Two runs with the same digest ran the
 * same design; a changed SKILL.md, world.json or case changes it. Run state (sessions, log) never enters it.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { designCandidates, evalCaseCandidates, EVALS_FOLDER } from '../../core/village/designFiles.js';

/** `sha256:<hex>` of the design at `dataDir` with `agentIds`. */
export async function designDigest(dataDir: string, agentIds: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const evals = evalCaseCandidates(await readdir(join(dataDir, 'workspace', EVALS_FOLDER)).catch(() => [] as string[]));
  for (const rel of [...designCandidates(agentIds), ...evals]) {
    let body: Buffer;
    try {
      body = await readFile(join(dataDir, rel));
    } catch {
      continue; // an absent optional file is part of the design too: its path simply is not hashed
    }
    hash.update(`${rel}\0${body.length}\0`).update(body);
  }
  return `sha256:${hash.digest('hex')}`;
}
