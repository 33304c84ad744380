/**
 * Prompt files as the supervisor reads them at each delivery (promptMaterial.ts): missing → "", an edit is seen at
 * the next read whatever its size, even when the file had settled (its stamp trusted).
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTexts, RACY_MS } from '../../src/host/promptMaterial.js';
import { MemoryDiagSink } from '../../src/core/diag.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function file(text?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ff-material-'));
  dirs.push(dir);
  const path = join(dir, 'Memory.md');
  if (text !== undefined) writeFileSync(path, text);
  return path;
}
/** Backdates a file past the racy window (so its stamp is trusted). */
const settle = (path: string): void => utimesSync(path, new Date(Date.now() - 10 * RACY_MS), new Date(Date.now() - 10 * RACY_MS));

describe('prompt file texts', () => {
  it('reads a missing file as empty without a warning, and sees it once it exists', () => {
    const diag = new MemoryDiagSink();
    const texts = new FileTexts(diag);
    const path = file();
    expect(texts.read(path)).toBe('');
    writeFileSync(path, 'now here');
    expect(texts.read(path)).toBe('now here');
    expect(diag.notes).toEqual([]);
  });

  it('sees an edit of the same size at the next read', () => {
    const texts = new FileTexts(new MemoryDiagSink());
    const path = file('alpha');
    settle(path);
    expect(texts.read(path)).toBe('alpha');
    writeFileSync(path, 'omega');
    expect(texts.read(path)).toBe('omega');
  });
});
