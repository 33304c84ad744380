/**
 * Splitting a walk so several threads can share it without changing its order. The walk (walker.ts) visits a
 * folder's entries in name order and then its subfolders; expanding a `tree` unit into its entries (as `file`
 * or `dirEntry` units) followed by its subfolders (as `tree` units) keeps that order, so the jobs' results,
 * concatenated in unit order, are exactly the sequential walk.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isSkippedName, walkSync } from '../walker.js';
import type { ScanUnit } from './scanJob.js';

/** Most folders read while planning (the planner runs on the agent's thread; it stays a few readdirs). */
const MAX_PLAN_READS = 64;

/** Expands the walk from `start` breadth-first until there are at least `target` tree units (or no folders left). */
export async function planUnits(start: string, startRel: string, includeDirs: boolean, target: number): Promise<ScanUnit[]> {
  let units: ScanUnit[] = [{ kind: 'tree', abs: start, rel: startRel }];
  let reads = 0;
  for (;;) {
    const trees = units.filter((u) => u.kind === 'tree').length;
    if (trees === 0 || trees >= target || reads + trees > MAX_PLAN_READS) return units;
    const next: ScanUnit[] = [];
    for (const unit of units) {
      if (unit.kind !== 'tree') {
        next.push(unit);
        continue;
      }
      reads += 1;
      next.push(...(await expand(unit, includeDirs)));
    }
    units = next;
  }
}

async function expand(unit: ScanUnit, includeDirs: boolean): Promise<ScanUnit[]> {
  let children;
  try {
    children = await readdir(unit.abs, { withFileTypes: true });
  } catch {
    return []; // unreadable folders are skipped, as the walker does
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: ScanUnit[] = [];
  const subtrees: ScanUnit[] = [];
  for (const child of children) {
    if (isSkippedName(child.name)) continue;
    const abs = join(unit.abs, child.name);
    const rel = unit.rel === '' ? child.name : `${unit.rel}/${child.name}`;
    if (child.isDirectory()) {
      if (includeDirs) entries.push({ kind: 'dirEntry', abs, rel });
      subtrees.push({ kind: 'tree', abs, rel });
    } else if (child.isFile()) {
      entries.push({ kind: 'file', abs, rel });
    }
  }
  return [...entries, ...subtrees];
}

/** Splits `units` into at most `parts` contiguous groups of near-equal size (order kept). */
export function splitUnits(units: ScanUnit[], parts: number): ScanUnit[][] {
  const n = Math.max(1, Math.min(parts, units.length));
  const groups: ScanUnit[][] = [];
  for (let i = 0; i < n; i += 1) {
    const from = Math.floor((i * units.length) / n);
    const to = Math.floor(((i + 1) * units.length) / n);
    groups.push(units.slice(from, to));
  }
  return groups.filter((g) => g.length > 0);
}

/** Visits the units in order (synchronously), calling `visit` per entry until it returns false. */
export function visitUnits(units: ScanUnit[], includeDirs: boolean, visit: (abs: string, rel: string, isDir: boolean) => boolean): void {
  for (const unit of units) {
    if (unit.kind === 'file') {
      if (!visit(unit.abs, unit.rel, false)) return;
    } else if (unit.kind === 'dirEntry') {
      if (!visit(unit.abs, unit.rel, true)) return;
    } else if (!walkSync(unit.abs, unit.rel, includeDirs, visit)) {
      return;
    }
  }
}
