/**
 * A structural check of an LMDB data file in plain JavaScript, before lmdb-js is allowed to map it. lmdb-js trusts
 * every page it follows: a damaged page kills the process with SIGSEGV/SIGBUS (and a read-write open once wrote
 * into the damaged file). Reading the file ourselves with bounds checks cannot crash, writes nothing and needs no
 * lock, so the boot and `check` can both ask it.
 *
 * What is walked: the meta page lmdb would pick (the first must carry the magic and version; the one with the
 * higher txnid wins, as `mdb_pick_meta` does), then every page reachable from the free-page tree and the main
 * tree, and from the main tree every named database. Each page must sit inside the file and below `mm_last_pg`,
 * carry its own page number, the expected kind and sane bounds; each node must lie inside its page; overflow runs
 * must have the length their node says; every tree must have the depth and page/entry counts its record claims,
 * and no page may be reached twice. Bytes inside keys and values are not interpreted here.
 *
 * Layout (the mdb.master3 format lmdb-js 3.x builds; 64-bit, little endian): page header 24 bytes
 * (pgno u64, txnid u64, pad u16, flags u16, lower u16, upper u16 | overflow page count u32 at +20); node pointers
 * follow the header, stored minus the header size; a node is lo u16, hi u16, flags u16, ksize u16, key, data.
 */
import fs from 'node:fs';

const PAGE_HEADER = 24;
const NODE_HEADER = 8;
const DB_RECORD = 48;
const MAGIC = 0xbeefc0de;
const DATA_VERSION = 2;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const P_META = 0x08;
const P_LEAF2 = 0x20;
/** In-memory bookkeeping bits that may reach the disk and mean nothing to a reader. */
const P_IGNORED = 0x2000 | 0x8000;
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
const F_DUPDATA = 0x04;
const MDB_DUPSORT = 0x04;
/** `P_INVALID` (all ones) read as a number: the root of an empty tree. */
const NO_PAGE = 0xffffffff * 2 ** 32 + 0xffffffff;
/** Deeper than any real tree (a 4 KiB page fans out ≥ 2 ways); stops a crafted cycle of fresh pages. */
const MAX_DEPTH = 64;

/** `absent`/`empty`: lmdb will create the store; `ok`: every reachable page checked; `corrupt`: why not. */
export type LmdbVerdict =
  | { state: 'absent' | 'empty' }
  | { state: 'ok'; pages: number }
  | { state: 'corrupt'; reason: string };

/** One database record (`MDB_db`), read from a meta page or a named-database node. */
interface DbRecord {
  flags: number;
  depth: number;
  branchPages: number;
  leafPages: number;
  overflowPages: number;
  entries: number;
  root: number;
}

class Corrupt extends Error {}

function fail(reason: string): never {
  throw new Corrupt(reason);
}

/** A u64 as a number: exact below 2^53, far beyond any page number or count of a file that fits on a disk. */
function u64(bytes: Buffer, at: number): number {
  return bytes.readUInt32LE(at) + bytes.readUInt32LE(at + 4) * 2 ** 32;
}

function readDb(bytes: Buffer, at: number): DbRecord {
  return {
    flags: bytes.readUInt16LE(at + 4),
    depth: bytes.readUInt16LE(at + 6),
    branchPages: u64(bytes, at + 8),
    leafPages: u64(bytes, at + 16),
    overflowPages: u64(bytes, at + 24),
    entries: u64(bytes, at + 32),
    root: u64(bytes, at + 40),
  };
}

interface Meta {
  pageSize: number;
  free: DbRecord;
  main: DbRecord;
  lastPage: number;
  txnid: number;
}

function readMeta(page: Buffer): Meta {
  const at = PAGE_HEADER;
  return {
    pageSize: page.readUInt32LE(at + 24),
    free: readDb(page, at + 24),
    main: readDb(page, at + 24 + DB_RECORD),
    lastPage: u64(page, at + 24 + 2 * DB_RECORD),
    txnid: u64(page, at + 24 + 2 * DB_RECORD + 8),
  };
}

/** What one tree walk counted, compared with its record at the end. */
interface Tally {
  branch: number;
  leaf: number;
  overflow: number;
  entries: number;
}

/** Files up to this size are read with one call; larger ones page by page (memory stays flat past it). */
const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads pages of one file by number, bounds-checked against the file and the meta's last page. A small store is
 * read whole (one call, where page-by-page reads cost more in system calls than the walk itself); a large one a
 * page at a time, since a tree's pages are not in file order and a block cache only thrashes.
 */
class PageReader {
  readonly seen = new Set<number>();
  private readonly whole: Buffer | null;
  constructor(
    private readonly fd: number,
    readonly pageSize: number,
    private readonly fileSize: number,
    readonly lastPage: number,
    /** The picked meta's txnid: no page can have been written by a later transaction. */
    readonly txnid: number,
  ) {
    this.whole = fileSize <= WHOLE_FILE_BYTES ? Buffer.allocUnsafe(fileSize) : null;
    if (this.whole !== null && fs.readSync(fd, this.whole, 0, fileSize, 0) !== fileSize) fail('short read');
  }

  private page(pgno: number): Buffer {
    const offset = pgno * this.pageSize;
    if (this.whole !== null) return this.whole.subarray(offset, offset + this.pageSize);
    const page = Buffer.allocUnsafe(this.pageSize);
    if (fs.readSync(this.fd, page, 0, this.pageSize, offset) !== this.pageSize) fail(`page ${pgno} short read`);
    return page;
  }

  /** Marks `count` pages from `pgno` as used (each at most once) and returns the first one's bytes. */
  claim(pgno: number, count = 1): Buffer {
    if (pgno < 2 || pgno + count - 1 > this.lastPage) fail(`page ${pgno} outside the used pages`);
    if ((pgno + count) * this.pageSize > this.fileSize) fail(`page ${pgno} past the end of the file`);
    for (let p = pgno; p < pgno + count; p += 1) {
      if (this.seen.has(p)) fail(`page ${p} reached twice`);
      this.seen.add(p);
    }
    const page = this.page(pgno);
    if (u64(page, 0) !== pgno) fail(`page ${pgno} carries another page number`);
    // lmdb decides from a page's txnid whether it may write it in place: one from the future would be overwritten.
    if (u64(page, 8) > this.txnid) fail(`page ${pgno} claims a later transaction than the store's`);
    return page;
  }
}

/** The node offsets of a branch or leaf page, each checked to leave room for a node header. */
function nodeOffsets(page: Buffer, pgno: number, size: number): number[] {
  const lower = page.readUInt16LE(20);
  const upper = page.readUInt16LE(22);
  if (lower % 2 !== 0 || lower > upper || PAGE_HEADER + upper > size) fail(`page ${pgno} has bad bounds`);
  const count = lower / 2;
  if (count === 0) fail(`page ${pgno} is empty`);
  const offsets: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = page.readUInt16LE(PAGE_HEADER + 2 * i) + PAGE_HEADER;
    // Nodes live between `upper` and the end of the page; one in the free gap would be overwritten by the next insert.
    if (at < PAGE_HEADER + upper || at + NODE_HEADER > size) fail(`page ${pgno} node ${i} outside the page`);
    offsets.push(at);
  }
  return offsets;
}

function overflowPages(dataSize: number, pageSize: number): number {
  return Math.floor((PAGE_HEADER - 1 + dataSize) / pageSize) + 1;
}

/** Walks one tree from its record; `onLeaf` sees each leaf node's flags and inline data. */
function walkTree(reader: PageReader, db: DbRecord, name: string, onLeaf?: (flags: number, data: Buffer) => void, dupSorted = (db.flags & MDB_DUPSORT) !== 0): void {
  if (db.root === NO_PAGE) {
    if (db.depth !== 0 || db.entries !== 0) fail(`${name}: empty tree with depth or entries`);
    return;
  }
  if (db.depth < 1 || db.depth > MAX_DEPTH) fail(`${name}: depth ${db.depth}`);
  const tally: Tally = { branch: 0, leaf: 0, overflow: 0, entries: 0 };
  const size = reader.pageSize;
  const visit = (pgno: number, depth: number): void => {
    const page = reader.claim(pgno);
    const kind = page.readUInt16LE(18) & ~P_IGNORED;
    const offsets = nodeOffsets(page, pgno, size);
    if (depth > 1) {
      if (kind !== P_BRANCH) fail(`${name}: page ${pgno} should be a branch page`);
      tally.branch += 1;
      for (const at of offsets) {
        // The child's page number: lo | hi << 16 | flags << 32 (a branch node's flags field is the top word).
        const child = page.readUInt32LE(at) + page.readUInt16LE(at + 4) * 2 ** 32;
        if (at + NODE_HEADER + page.readUInt16LE(at + 6) > size) fail(`${name}: page ${pgno} key outside the page`);
        visit(child, depth - 1);
      }
      return;
    }
    if (kind !== P_LEAF && kind !== (P_LEAF | P_LEAF2)) fail(`${name}: page ${pgno} should be a leaf page`);
    tally.leaf += 1;
    if (kind & P_LEAF2) {
      tally.entries += offsets.length;
      return;
    }
    for (const at of offsets) {
      const flags = page.readUInt16LE(at + 4);
      const keySize = page.readUInt16LE(at + 6);
      const dataSize = page.readUInt16LE(at) | (page.readUInt16LE(at + 2) << 16);
      if ((flags & ~(F_BIGDATA | F_SUBDATA | F_DUPDATA)) !== 0) fail(`${name}: page ${pgno} node flags ${flags}`);
      const dataAt = at + NODE_HEADER + keySize;
      const inline = flags & F_BIGDATA ? 8 : dataSize;
      if (dataAt + inline > size) fail(`${name}: page ${pgno} node outside the page`);
      tally.entries += 1;
      if (flags & F_BIGDATA) {
        const first = u64(page, dataAt);
        const count = overflowPages(dataSize, size);
        const head = reader.claim(first, count);
        if ((head.readUInt16LE(18) & ~P_IGNORED) !== P_OVERFLOW) fail(`${name}: page ${first} should be an overflow page`);
        if (head.readUInt32LE(20) !== count) fail(`${name}: overflow run at ${first} has the wrong length`);
        tally.overflow += count;
        continue;
      }
      onLeaf?.(flags, page.subarray(dataAt, dataAt + dataSize));
    }
  };
  visit(db.root, db.depth);
  if (tally.branch !== db.branchPages || tally.leaf !== db.leafPages || tally.overflow !== db.overflowPages) {
    fail(`${name}: page counts differ from its record`);
  }
  // A dup-sorted tree counts every duplicate in `entries`; its sub-trees are walked but not tallied here.
  if (!dupSorted && tally.entries !== db.entries) fail(`${name}: entry count differs from its record`);
}

/** Walks the whole env whose meta pages were read; throws Corrupt with the first problem found. */
function walkEnv(reader: PageReader, meta: Meta): void {
  // The free-page tree's flags field holds the environment's flags instead (`mm_flags`): never dup-sorted.
  walkTree(reader, meta.free, 'free pages', undefined, false);
  walkTree(reader, meta.main, 'main', (flags, data) => {
    if ((flags & F_SUBDATA) === 0) return;
    if (data.length !== DB_RECORD) fail('main: a named database record has the wrong size');
    walkNamed(reader, readDb(data, 0), 'named database');
  });
}

function walkNamed(reader: PageReader, db: DbRecord, name: string): void {
  walkTree(reader, db, name, (flags, data) => {
    // A sub-tree of duplicates is a database record of its own; an inline sub-page stays inside its node.
    if ((flags & (F_DUPDATA | F_SUBDATA)) === (F_DUPDATA | F_SUBDATA)) {
      if (data.length !== DB_RECORD) fail(`${name}: a duplicate sub-tree record has the wrong size`);
      walkNamed(reader, readDb(data, 0), `${name} duplicates`);
    }
  });
}

function pickMeta(fd: number, fileSize: number): Meta {
  const probe = Buffer.alloc(PAGE_HEADER + 24 + 2 * DB_RECORD + 16);
  if (fs.readSync(fd, probe, 0, probe.length, 0) < probe.length) fail('shorter than a meta page');
  if ((probe.readUInt16LE(18) & P_META) === 0) fail('the first page is not a meta page');
  if (probe.readUInt32LE(PAGE_HEADER) !== MAGIC) fail('not an LMDB file (magic)');
  if ((probe.readUInt32LE(PAGE_HEADER + 4) & 0xffff) !== DATA_VERSION) fail('LMDB data version not supported');
  const first = readMeta(probe);
  const size = first.pageSize;
  if (size < 512 || size > 65536 || (size & (size - 1)) !== 0) fail(`page size ${size}`);
  if (fileSize < 2 * size) fail('truncated inside the meta pages');
  const second = Buffer.alloc(probe.length);
  fs.readSync(fd, second, 0, second.length, size);
  // lmdb checks only the first meta's magic and then takes the newer txnid, so a damaged second meta is followed.
  if (second.readUInt32LE(PAGE_HEADER) !== MAGIC || (second.readUInt16LE(18) & P_META) === 0) fail('the second meta page is damaged');
  const other = readMeta(second);
  const meta = other.txnid >= first.txnid ? other : first;
  if (meta.pageSize !== size) fail('the meta pages disagree on the page size');
  if ((meta.lastPage + 1) * size > fileSize) fail('truncated (shorter than its last used page)');
  return meta;
}

/** Checks the LMDB file at `dataPath`. Never writes, never maps; I/O errors other than ENOENT propagate. */
export function verifyLmdbFile(dataPath: string): LmdbVerdict {
  let fd: number;
  try {
    fd = fs.openSync(dataPath, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { state: 'absent' };
    throw error;
  }
  try {
    const fileSize = fs.fstatSync(fd).size;
    if (fileSize === 0) return { state: 'empty' };
    const meta = pickMeta(fd, fileSize);
    const reader = new PageReader(fd, meta.pageSize, fileSize, meta.lastPage, meta.txnid);
    walkEnv(reader, meta);
    return { state: 'ok', pages: reader.seen.size };
  } catch (error) {
    if (error instanceof Corrupt) return { state: 'corrupt', reason: error.message };
    if (error instanceof RangeError) return { state: 'corrupt', reason: 'a record reaches past its page' };
    throw error;
  } finally {
    fs.closeSync(fd);
  }
}
