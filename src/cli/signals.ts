/**
 * SIGINT / SIGTERM handling of `ask` and `serve`, installed at the very start of the command (before preflight
 * and boot), so a Ctrl+C at any moment ends in the close path and a defined exit code instead of Node's default
 * kill (seed P6: a handler created only when the request is sent left the whole boot unprotected).
 */

/** Counts signals and tells listeners; the first one also aborts `signal`. */
export class SignalWatch {
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(count: number, name: NodeJS.Signals) => void>();
  private received = 0;
  private readonly handler = (name: NodeJS.Signals): void => {
    this.received += 1;
    if (this.received === 1) this.controller.abort();
    for (const fn of [...this.listeners]) fn(this.received, name);
  };

  /** Installs the handlers on `process` for SIGINT and SIGTERM. */
  constructor(private readonly signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']) {
    for (const s of this.signals) process.on(s, this.handler);
  }

  /** Signals received so far. */
  get count(): number {
    return this.received;
  }

  /** Aborted at the first signal (boot steps check it between steps). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Calls `fn(count, name)` for every later signal; returns the unsubscribe function. */
  onSignal(fn: (count: number, name: NodeJS.Signals) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves at the first signal (immediately when one already arrived). */
  next(): Promise<void> {
    if (this.received > 0) return Promise.resolve();
    return new Promise((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** Removes the process handlers (tests, and before a deliberate exit). */
  dispose(): void {
    for (const s of this.signals) process.off(s, this.handler);
    this.listeners.clear();
  }
}

/**
 * The one deliberate `process.exit` of the CLI: a second signal, or a close past its grace, exits at once with
 * `code` (SPEC §6.3) — waiting politely is exactly what the person asked us to stop doing.
 */
export function exitNow(code: number): never {
  process.exitCode = code;
  process.exit(code);
}
