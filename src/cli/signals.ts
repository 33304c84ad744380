/**
 * SIGINT / SIGTERM handling of the CLI. The handlers are installed by `bin/run.js` before the CLI is even loaded
 * (`installProcessSignals`), so a Ctrl+C during the ~0.3 s of loading oclif, parsing, preflight or boot is counted
 * instead of killing the process; `ask` and `serve` then claim the same watch (`processSignals`) and end in their
 * close path with a defined exit code (ask 8, serve 0). Other commands keep Node's default: a signal that arrives
 * while no command has claimed the watch, and no one else listens, is raised again with the handlers removed.
 */

/** Commands that claim the early watch and turn a signal into their own exit code. */
const CLAIMING_COMMANDS: ReadonlySet<string> = new Set(['ask', 'serve', 'eval']);

/** Counts signals and tells listeners; the first one also aborts `signal`. */
export class SignalWatch {
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(count: number, name: NodeJS.Signals) => void>();
  private received = 0;
  private readonly handler = (name: NodeJS.Signals): void => {
    this.received += 1;
    if (this.received === 1) this.controller.abort();
    for (const fn of [...this.listeners]) fn(this.received, name);
    if (!this.claimed && !this.deferToCommand) this.raiseAsDefault(name);
  };
  private claimed: boolean;
  private deferToCommand = false;

  /** Installs the handlers on `process` for SIGINT and SIGTERM. A watch made directly is claimed at once. */
  constructor(private readonly signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'], claimed = true) {
    this.claimed = claimed;
    for (const s of this.signals) process.on(s, this.handler);
  }

  /** Signals received so far (also those before the command claimed the watch). */
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
    if (early === this) early = null;
  }

  /** @internal The early watch: keep signals for the command named in argv, or behave as Node's default. */
  deferTo(command: string | undefined): void {
    this.deferToCommand = command !== undefined && CLAIMING_COMMANDS.has(command);
  }

  /** @internal A command takes over this watch (and every signal it already counted). */
  claim(): this {
    this.claimed = true;
    return this;
  }

  /** Node's default action for a command that does not handle signals: unless someone else listens, die by it. */
  private raiseAsDefault(name: NodeJS.Signals): void {
    if (process.listenerCount(name) > 1) return;
    this.dispose();
    process.kill(process.pid, name);
  }
}

let early: SignalWatch | null = null;

/** The first command word of `argv` (flags skipped). */
function commandOf(argv: readonly string[]): string | undefined {
  return argv.find((arg) => !arg.startsWith('-'));
}

/**
 * Installs the process-wide watch as the first act of the CLI process (`bin/run.js`). Signals are counted from here
 * on; for `ask`/`serve` they wait for the command, for any other command they act as Node's default.
 */
export function installProcessSignals(argv: readonly string[]): SignalWatch {
  if (early === null) early = new SignalWatch(['SIGINT', 'SIGTERM'], false);
  early.deferTo(commandOf(argv));
  return early;
}

/** The watch a command uses: the early one when `bin/run.js` installed it (with its signals so far), else a new one. */
export function processSignals(): SignalWatch {
  return early === null ? new SignalWatch() : early.claim();
}

/**
 * The one deliberate `process.exit` of the CLI: a second signal, or a close past its grace, exits at once with
 * `code` (SPEC §6.3) — waiting politely is exactly what the person asked us to stop doing.
 */
export function exitNow(code: number): never {
  process.exitCode = code;
  process.exit(code);
}
