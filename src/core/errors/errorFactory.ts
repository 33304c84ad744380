/**
 * How an error factory is made (STYLE 20): each factory is bound to one code when it is defined, builds the message,
 * fix and details from its arguments, and takes its fault from the code's row in ERROR_FAULTS. The catalogues in this
 * folder (one per area) are the only place a FuseforksError is constructed; test/architecture/errorFactories.test.ts
 * checks that every code has a factory and that nothing else under src/ calls `new FuseforksError(`.
 */
import { FuseforksError, type ErrorCode, type ErrorDetails } from '../errors.js';

/** What a factory builds from its arguments: the sentences a person reads and the JSON-safe details. */
export interface ErrorSpec {
  message: string;
  /** How a person fixes it, when there is something to do. */
  fix?: string | undefined;
  details?: ErrorDetails | undefined;
  agentId?: string | null | undefined;
  /** Overrides the code's default (MAILBOX_FULL, COMPUTE_* retry; the rest do not). */
  retryable?: boolean | undefined;
  cause?: unknown;
}

/** A function that makes errors of exactly one code; `code` lets tests and tools see which without calling it. */
export type ErrorFactory<A extends unknown[], E extends FuseforksError = FuseforksError> = ((...args: A) => E) & {
  readonly code: ErrorCode;
};

/** Tags `make` with the one code it raises. */
export function tagFactory<A extends unknown[], E extends FuseforksError>(code: ErrorCode, make: (...args: A) => E): ErrorFactory<A, E> {
  return Object.assign(make, { code });
}

/** A factory for `code` whose sentences and details come from `build`. */
export function errorFactory<A extends unknown[]>(code: ErrorCode, build: (...args: A) => ErrorSpec): ErrorFactory<A> {
  return tagFactory(code, (...args: A) => {
    const { message, ...options } = build(...args);
    return new FuseforksError(code, message, options);
  });
}

/** True for a value made by `errorFactory` / `tagFactory` (what a catalogue exports). */
export function isErrorFactory(value: unknown): value is ErrorFactory<unknown[]> {
  return typeof value === 'function' && typeof (value as { code?: unknown }).code === 'string';
}
