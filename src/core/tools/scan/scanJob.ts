/**
 * Scanning jobs: the CPU-heavy part of grep, fd and diff as plain data, so it can run on the process's shared
 * pool (actors/scanPool.ts) instead of the agent's thread. Paths in a job are already confined by the tool.
 */
import type { TextSkip } from '../textFile.js';

/**
 * One piece of a walk, in walk order: `tree` = a directory walked recursively (its files, then its subfolders);
 * `file` = one file; `dirEntry` = a folder listed as an entry only (fd).
 */
export interface ScanUnit {
  kind: 'tree' | 'file' | 'dirEntry';
  abs: string;
  /** `/`-separated path as shown to the model. */
  rel: string;
}

/** One line to show: `match` lines use `:`, context lines `-`. */
export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

export interface GrepJob {
  kind: 'grep';
  units: ScanUnit[];
  pattern: string;
  ignoreCase: boolean;
  /** Regex on file names; null = every file. */
  include: string | null;
  context: number;
  countOnly: boolean;
  /** Files a whole walk may visit; a job stops after this many + 1 (the merge applies the global cap). */
  maxFiles: number;
}

export interface FdJob {
  kind: 'fd';
  units: ScanUnit[];
  pattern: string;
  ignoreCase: boolean;
  maxFiles: number;
}

export interface DiffJob {
  kind: 'diff';
  oldAbs: string;
  newAbs: string;
  oldRel: string;
  newRel: string;
}

export type ScanJob = GrepJob | FdJob | DiffJob;

/** A file with matches, at position `at` among the files its job visited. */
export interface GrepHit {
  at: number;
  rel: string;
  count: number;
  lines: GrepLine[];
}

export interface GrepOutput {
  kind: 'grep';
  /** Files visited (all of them, before `include`), in walk order. */
  files: number;
  hits: GrepHit[];
  /** Positions of files skipped as binary, too big or unreadable. */
  skipped: number[];
}

/** An fd match; `filesBefore` = files this job visited before it (places it against the global cap). */
export interface FdHit {
  rel: string;
  isDir: boolean;
  filesBefore: number;
}

export interface FdOutput {
  kind: 'fd';
  files: number;
  hits: FdHit[];
}

export type DiffOutput =
  | { kind: 'diff'; outcome: 'patch'; patch: string }
  | { kind: 'diff'; outcome: 'identical' }
  | { kind: 'diff'; outcome: 'skipped'; which: 'old' | 'new'; skip: TextSkip };

export type ScanOutput = GrepOutput | FdOutput | DiffOutput;

/**
 * Runs a job where scanning happens (the shared pool, through the main thread). Resolves null when `signal`
 * fired first (the job is cancelled there); rejects with COMPUTE_BUSY when the pool's queue is full.
 */
export type ScanRunner = (job: ScanJob, signal: AbortSignal) => Promise<ScanOutput | null>;
