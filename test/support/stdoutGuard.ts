/**
 * Any stray write to stdout from code under test fails the test: stdout belongs to the answer
 * (`ask`) and the findings (`check`) only. Child processes are checked by their own tests.
 */
import { afterEach } from 'vitest';

const writes: string[] = [];
const original = process.stdout.write.bind(process.stdout);

process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
  writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return (original as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;

afterEach(() => {
  const seen = writes.splice(0);
  if (seen.length > 0) {
    throw new Error(`code under test wrote to stdout: ${JSON.stringify(seen.join('').slice(0, 200))}`);
  }
});
