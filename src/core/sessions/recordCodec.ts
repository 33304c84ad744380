/**
 * The session store's value encoding for records: the project's msgpackr `Packr` with record structures shared
 * across values and persisted in the store (named db `structures`), so a record carries its values, not its keys.
 *
 * Migration: stores written before this codec hold lmdb's own msgpack (each value defines its record inline). Those
 * values stay where they are and keep reading: every value this codec writes starts with 0xC1, the one byte msgpack
 * never uses, so a value without it is decoded as before. Nothing is rewritten on open (nothing can be lost), and
 * a store holding both kinds reads record by record. The prefix also keeps the two decoders apart: with shared
 * structures, bytes 0x40–0x7F mean "record N", which in an old value are plain small integers.
 */
import type { Database, RootDatabase } from 'lmdb';
import { Packr } from 'msgpackr';

/** First byte of every value this codec writes (never a valid msgpack first byte). */
export const CODEC_MARK = 0xc1;

/** Size of one encoding arena (values are appended; a full arena is left to the values that point into it). */
const ARENA_BYTES = 64 * 1024;

/** The key of the structure list in the `structures` db. */
const STRUCTURES_KEY = 'records';

/** What lmdb calls: `encode(value)` and `decode(bytes, end | {end})` (lmdb may hand a longer, reused buffer). */
export interface RecordCodec {
  encode(value: unknown): Buffer;
  decode(bytes: Uint8Array, size?: number | { end?: number }): unknown;
}

type Structures = Array<{}>;

/** A codec whose shared structures live in `structuresDb` (written in their own synchronous transaction). */
export function createRecordCodec(env: RootDatabase, structuresDb: Database<Structures, string>): RecordCodec {
  // msgpackr calls saveStructures(structures, isCompatible); its types declare only the first argument.
  const saveStructures = (structures: Structures, isCompatible?: ((existing: Structures | undefined) => boolean) | number): boolean =>
    env.transactionSync(() => {
      const existing = structuresDb.get(STRUCTURES_KEY);
      const compatible = typeof isCompatible === 'function' ? isCompatible(existing) : (existing?.length ?? 0) === (isCompatible ?? 0);
      if (!compatible) return false; // changed underneath: msgpackr reloads them and tries again
      structuresDb.putSync(STRUCTURES_KEY, structures.slice());
      return true;
    });
  const packr = new Packr({
    structures: [],
    maxSharedStructures: 32,
    copyBuffers: true,
    getStructures: () => structuresDb.get(STRUCTURES_KEY) ?? [],
    saveStructures,
  });
  // Values written before this codec: lmdb's default msgpack, inline record definitions, no shared structures.
  const legacy = new Packr({ copyBuffers: true });
  // lmdb keeps a reference to each encoded value until its commit and reads `start`/`end` when they are set (as
  // msgpackr itself does): values go one after another into an arena that is only ever appended to, so a put
  // costs no allocation of its own.
  let arena: Buffer & { start?: number; end?: number } = Buffer.allocUnsafeSlow(ARENA_BYTES);
  let used = 0;
  return {
    encode(value) {
      const body = packr.pack(value);
      const need = body.length + 1;
      if (used + need > arena.length) {
        arena = Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, need));
        used = 0;
      }
      arena[used] = CODEC_MARK;
      arena.set(body, used + 1);
      arena.start = used;
      arena.end = used + need;
      used += need;
      return arena;
    },
    decode(bytes, size) {
      const end = typeof size === 'number' ? size : (size?.end ?? bytes.length);
      if (bytes[0] === CODEC_MARK) return packr.unpack(bytes as Buffer, { start: 1, end });
      return legacy.unpack(bytes as Buffer, { start: 0, end });
    },
  };
}
