/**
 * Reading a file as text for the search and diff tools: regular files only, at most 2 MiB, and not binary
 * (a NUL byte within the first 4096 bytes, the same rule git and grep use).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Largest file the tools read or write, in bytes. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** How many leading bytes decide "binary". */
export const BINARY_PROBE_BYTES = 4096;

/** Why a file was not read as text. */
export type TextSkip = 'too_big' | 'binary' | 'not_file' | 'unreadable';

/** The text of a file, or why it was skipped. */
export type TextRead = { ok: true; text: string; bytes: number } | { ok: false; skip: TextSkip };

/** True when `bytes` has a NUL within its first 4096 bytes. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_PROBE_BYTES);
  for (let i = 0; i < end; i += 1) if (bytes[i] === 0) return true;
  return false;
}

/** Reads `abs` as UTF-8 if it is a regular file of at most `maxBytes` bytes and not binary. */
export async function readTextFile(abs: string, maxBytes: number = MAX_FILE_BYTES): Promise<TextRead> {
  let handle;
  try {
    // O_NONBLOCK: if a FIFO slipped in after the checks, open must not wait for a writer forever.
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { ok: false, skip: 'unreadable' };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, skip: 'not_file' };
    if (info.size > maxBytes) return { ok: false, skip: 'too_big' };
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) return { ok: false, skip: 'binary' };
    return { ok: true, text: bytes.toString('utf8'), bytes: bytes.length };
  } catch {
    return { ok: false, skip: 'unreadable' };
  } finally {
    await handle.close();
  }
}

/**
 * Reads a file the walker found, for scanning: one read into `scratch` covers a small file without a stat (the
 * common case of a large tree), then the rule of readTextFileSync applies. O_NONBLOCK keeps a FIFO that replaced
 * the file after the walk from blocking (its read fails: unreadable).
 */
export function readTextForScan(abs: string, scratch: Buffer, maxBytes: number = MAX_FILE_BYTES): TextRead {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { ok: false, skip: 'unreadable' };
  }
  let n: number;
  try {
    n = readSync(fd, scratch, 0, scratch.length, 0);
  } catch {
    closeSync(fd);
    return { ok: false, skip: 'unreadable' };
  }
  if (n === scratch.length) {
    closeSync(fd);
    return readTextFileSync(abs, maxBytes); // larger than the scratch buffer: the general path
  }
  closeSync(fd);
  if (n > maxBytes) return { ok: false, skip: 'too_big' };
  const view = scratch.subarray(0, n);
  if (looksBinary(view)) return { ok: false, skip: 'binary' };
  return { ok: true, text: view.toString('utf8'), bytes: n };
}

/**
 * The synchronous twin of readTextFile, for scanning many small files: measured 2–4× faster than async
 * reads on 20,000 files (no thread-pool round trip per file). Callers read in small batches and yield
 * between them so an abort is still noticed.
 */
export function readTextFileSync(abs: string, maxBytes: number = MAX_FILE_BYTES): TextRead {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { ok: false, skip: 'unreadable' };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { ok: false, skip: 'not_file' };
    if (info.size > maxBytes) return { ok: false, skip: 'too_big' };
    const bytes = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break; // the file shrank while we read it
      filled += n;
    }
    const view = bytes.subarray(0, filled);
    if (looksBinary(view)) return { ok: false, skip: 'binary' };
    return { ok: true, text: view.toString('utf8'), bytes: filled };
  } catch {
    return { ok: false, skip: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}
