/**
 * `flock(2)` for Node, which has none in core: libc's own function called through koffi, an FFI package that
 * ships prebuilt binaries for each platform (nothing is compiled at install, no C++ toolchain or Node headers
 * needed — the reason it replaced fs-ext, see the README's dependency table). Linux and macOS; main thread only.
 * koffi loads at the first call (~8 ms of CPU: it reads the Node binary to tell the libc), not at import: a cold
 * `ask` imports this before it spawns its first agent worker and calls it only after.
 */
import { createRequire } from 'node:module';
import { constants } from 'node:os';

type Koffi = typeof import('koffi');
let koffiModule: Koffi | null = null;

function koffi(): Koffi {
  koffiModule ??= createRequire(import.meta.url)('koffi') as Koffi;
  return koffiModule;
}

/** flock operations (the same values on Linux and the BSDs/macOS). */
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

type FlockFn = (fd: number, operation: number) => number;
let bound: FlockFn | null = null;

/** libc's flock, bound once from the running process's own symbols (libc is already loaded into Node). */
function flockFn(): FlockFn {
  bound ??= koffi().load(null).func('int flock(int fd, int operation)') as FlockFn;
  return bound;
}

/** An errno number as its name (`EAGAIN`), from Node's table for this platform. */
function errnoName(value: number): string {
  for (const [name, number] of Object.entries(constants.errno)) if (number === value) return name;
  return `ERRNO_${value}`;
}

/** A failed flock call as a Node-style error carrying `code` (the errno name) and `errno`. */
function flockError(op: string): NodeJS.ErrnoException {
  const value = koffi().errno();
  const code = errnoName(value);
  const error: NodeJS.ErrnoException = new Error(`${code}: flock ${op} failed`);
  error.code = code;
  error.errno = value;
  error.syscall = 'flock';
  return error;
}

/** Exclusive, non-blocking flock on `fd`; throws with `code` EAGAIN/EWOULDBLOCK when another open file holds it. */
export function flockExclusiveNonBlocking(fd: number): void {
  if (flockFn()(fd, LOCK_EX | LOCK_NB) !== 0) throw flockError('exclusive');
}

/** Releases a flock held through `fd`. */
export function flockUnlock(fd: number): void {
  if (flockFn()(fd, LOCK_UN) !== 0) throw flockError('unlock');
}
