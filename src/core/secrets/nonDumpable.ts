/**
 * `prctl(PR_SET_DUMPABLE, 0)` for Node, which has no API for it: libc's own function called through koffi (the
 * same prebuilt FFI the village lock uses in `flock.ts`). A non-dumpable process's /proc files (environ, mem, maps,
 * fd …) belong to root, so processes of the same user cannot read its memory or environment. Linux only; main
 * thread only.
 */
import koffi from 'koffi';

const PR_SET_DUMPABLE = 4;

type PrctlFn = (option: number, a2: number, a3: number, a4: number, a5: number) => number;

/** Marks this process non-dumpable; false where that is not possible (not Linux, or the call failed). */
export function makeNonDumpable(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const prctl = koffi.load(null).func('int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)') as PrctlFn;
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) === 0;
  } catch {
    return false;
  }
}
