/**
 * A pre-open sanity check of an LMDB data file. lmdb-js segfaults (kills the whole process) when asked to
 * open a file that is not a valid LMDB env, so the "corrupt file → WARN and run without persistence" promise
 * needs this check before `open()`. It reads the two meta pages only: magic, page size, and whether the file
 * is long enough for the newest meta's last page (a truncated copy). Deeper damage inside the B-tree is not
 * detected here.
 *
 * Layout (lmdb-js 3.x build, little endian; read from files it wrote): meta page N starts at N × pageSize;
 * magic u32 at +24, page size u32 at +48 (FREE_DBI md_pad), last page u64 at +144, txnid u64 at +152.
 */
import fs from 'node:fs';

export const LMDB_MAGIC = 0xbeefc0de;
const MAGIC_AT = 24;
const PAGE_SIZE_AT = 48;
const LAST_PAGE_AT = 144;
const TXNID_AT = 152;
const META_BYTES = 160;

/** `absent`/`empty`: lmdb will create it; `ok`: looks like an env; otherwise why it is not one. */
export type LmdbHeaderVerdict = 'absent' | 'empty' | 'ok' | 'not_lmdb' | 'truncated';

interface Meta {
  lastPage: number;
  txnid: number;
}

function readMeta(bytes: Buffer, at: number): Meta | null {
  if (bytes.length < at + META_BYTES) return null;
  if (bytes.readUInt32LE(at + MAGIC_AT) !== LMDB_MAGIC) return null;
  return { lastPage: Number(bytes.readBigUInt64LE(at + LAST_PAGE_AT)), txnid: Number(bytes.readBigUInt64LE(at + TXNID_AT)) };
}

/** Pure verdict from the file's first bytes (at least 2 pages when available) and its full size in bytes. */
export function judgeLmdbHeader(head: Buffer, fileSize: number): LmdbHeaderVerdict {
  if (fileSize === 0) return 'empty';
  if (head.length < META_BYTES) return 'not_lmdb';
  const pageSize = head.readUInt32LE(PAGE_SIZE_AT);
  const validPage = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0;
  if (!validPage) return 'not_lmdb';
  const first = readMeta(head, 0);
  const second = readMeta(head, pageSize);
  if (first === null || second === null) return fileSize < pageSize * 2 ? 'truncated' : 'not_lmdb';
  const newest = first.txnid >= second.txnid ? first : second;
  return (newest.lastPage + 1) * pageSize <= fileSize ? 'ok' : 'truncated';
}

/** Reads the head of `dataPath` and judges it. I/O errors other than ENOENT propagate. */
export function checkLmdbFile(dataPath: string): LmdbHeaderVerdict {
  let fd: number;
  try {
    fd = fs.openSync(dataPath, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 'absent';
    throw error;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, 2 * 65536));
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return judgeLmdbHeader(head.subarray(0, read), size);
  } finally {
    fs.closeSync(fd);
  }
}
