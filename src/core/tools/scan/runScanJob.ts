/**
 * Runs one scanning job to the end, synchronously: where it runs (a pool thread) blocking is the job. Pure apart
 * from reading the files the job names; the tool formats the merged output.
 */
import { createTwoFilesPatch } from 'diff';
import { compileSafeRegex } from '../safeRegex.js';
import { readTextFileSync, readTextForScan } from '../textFile.js';
import { searchText, wholeTextPrefilter } from './searchText.js';
import type { DiffJob, DiffOutput, FdJob, FdOutput, GrepJob, GrepOutput, ScanJob, ScanOutput } from './scanJob.js';
import { visitUnits } from './units.js';

function mustCompile(pattern: string, flags: string): RegExp {
  const compiled = compileSafeRegex(pattern, flags);
  // The tool compiled the same pattern before sending it: a refusal here is a broken invariant.
  if (!compiled.ok) throw new Error(`scan job pattern was not checked by its tool (${compiled.why})`);
  return compiled.regex;
}

const nameOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/** One read buffer per thread: most files of a large tree fit, so they cost one read and no allocation. */
const scratch = Buffer.allocUnsafe(64 * 1024);

function grep(job: GrepJob): GrepOutput {
  const regex = mustCompile(job.pattern, job.ignoreCase ? 'i' : '');
  const prefilter = wholeTextPrefilter(regex);
  const include = job.include === null ? null : mustCompile(job.include, '');
  const out: GrepOutput = { kind: 'grep', files: 0, hits: [], skipped: [] };
  visitUnits(job.units, false, (abs, rel) => {
    const at = out.files;
    out.files += 1;
    if (out.files > job.maxFiles) return false; // the merge knows the walk went past the cap
    if (include !== null && !include.test(nameOf(rel))) return true;
    const read = readTextForScan(abs, scratch);
    if (!read.ok) {
      out.skipped.push(at);
      return true;
    }
    const found = searchText(read.text, regex, job.countOnly ? 0 : job.context, prefilter);
    if (found.count > 0) out.hits.push({ at, rel, count: found.count, lines: job.countOnly ? [] : found.lines });
    return true;
  });
  return out;
}

function fd(job: FdJob): FdOutput {
  const regex = mustCompile(job.pattern, job.ignoreCase ? 'i' : '');
  const out: FdOutput = { kind: 'fd', files: 0, hits: [] };
  visitUnits(job.units, true, (_abs, rel, isDir) => {
    const filesBefore = out.files;
    if (!isDir) {
      out.files += 1;
      if (out.files > job.maxFiles) return false;
    }
    if (regex.test(nameOf(rel))) out.hits.push({ rel, isDir, filesBefore });
    return true;
  });
  return out;
}

function diff(job: DiffJob): DiffOutput {
  const texts: string[] = [];
  for (const [which, abs] of [['old', job.oldAbs], ['new', job.newAbs]] as const) {
    const read = readTextFileSync(abs);
    if (!read.ok) return { kind: 'diff', outcome: 'skipped', which, skip: read.skip };
    texts.push(read.text);
  }
  const [oldText, newText] = texts as [string, string];
  if (oldText === newText) return { kind: 'diff', outcome: 'identical' };
  return { kind: 'diff', outcome: 'patch', patch: createTwoFilesPatch(job.oldRel, job.newRel, oldText, newText, undefined, undefined, { context: 3 }) };
}

/** Runs `job`. */
export function runScanJob(job: ScanJob): ScanOutput {
  switch (job.kind) {
    case 'grep':
      return grep(job);
    case 'fd':
      return fd(job);
    case 'diff':
      return diff(job);
  }
}
