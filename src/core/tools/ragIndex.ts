/**
 * Building the `rag` heading index: THE one function that walks declared folders and reads Markdown, so it can
 * move off the agent's thread (into the worker pool) without the tool changing. Input and output are plain data
 * (structured-clone safe); paths in the request are already confined real paths.
 */
import { stat } from 'node:fs/promises';
import { parseHeadings, type Heading } from './docIndex.js';
import { readTextFileSync, type TextSkip } from './textFile.js';
import { MAX_WALK_FILES, walkSync } from './walker.js';

/** One place to index: a declared root (real path) and a file or folder inside it (real path). */
export interface RagTarget {
  root: string;
  start: string;
  /** `start` as shown relative to `root` ('' for the root itself). */
  startRel: string;
}

export interface RagIndexRequest {
  targets: RagTarget[];
  /** Keep each file's text (search needs it; outline does not). */
  withText: boolean;
  maxFiles?: number;
}

/** One Markdown file: its headings, and its text when asked for; `skip` says why it could not be read. */
export interface RagFile {
  root: string;
  rel: string;
  headings: Heading[];
  text?: string;
  skip?: TextSkip;
}

export interface RagIndex {
  files: RagFile[];
  /** The walk stopped at the file limit. */
  truncated: boolean;
}

/** `.md` and `.markdown`, any case. */
export function isMarkdownName(name: string): boolean {
  return /\.(md|markdown)$/i.test(name);
}

/**
 * Walks every target (symlinks never followed, dot-entries and build folders skipped, at most 20,000 files per
 * target) and indexes the Markdown files it finds; a target that is a file is indexed whatever its name.
 */
export async function buildRagIndex(request: RagIndexRequest, signal: AbortSignal = new AbortController().signal): Promise<RagIndex> {
  const files: RagFile[] = [];
  let truncated = false;
  for (const target of request.targets) {
    let found: Array<{ abs: string; rel: string }>;
    if ((await stat(target.start)).isFile()) {
      found = [{ abs: target.start, rel: target.startRel }];
    } else {
      const max = request.maxFiles ?? MAX_WALK_FILES;
      const entries: Array<{ abs: string; rel: string }> = [];
      const complete = walkSync(target.start, target.startRel, false, (abs, rel) => {
        if (signal.aborted || entries.length >= max) return false;
        entries.push({ abs, rel });
        return true;
      });
      truncated ||= !complete && !signal.aborted;
      found = entries.filter((e) => isMarkdownName(e.rel));
    }
    for (const entry of found) {
      if (signal.aborted) return { files, truncated };
      const read = readTextFileSync(entry.abs);
      if (!read.ok) {
        files.push({ root: target.root, rel: entry.rel, headings: [], skip: read.skip });
        continue;
      }
      const file: RagFile = { root: target.root, rel: entry.rel, headings: parseHeadings(read.text) };
      if (request.withText) file.text = read.text;
      files.push(file);
    }
  }
  return { files, truncated };
}
