/**
 * A Node built-in module loaded on its first use instead of at import. Each agent worker is its own V8 isolate and
 * loads every built-in it imports again: `node:https` (the TLS stack) costs a worker ~5 ms of CPU, `node:http` ~3,
 * `node:child_process` ~2, while most agents of a batch never call a remote model or spawn a process.
 */
import { createRequire } from 'node:module';

// Built-ins resolve the same from anywhere; the root path only satisfies createRequire.
const requireBuiltin = createRequire('/');

/** `name` (a `node:` module) on first call, the same object after. */
export function lazyBuiltin<T>(name: `node:${string}`): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireBuiltin(name) as T);
}
