/**
 * The startup band: the fixed order of the first lines of every boot, so two boots can be compared line by
 * line. `openDiagLog` writes `started`; the host then calls, in this order and each at most once,
 * `version` → `sessionOpened` → `mcpServer` (only when the door is on) → `jev` (only when configured).
 * Calling a step after a later one is a bug in the host (BugError), caught by the host's tests, never by users.
 */
import type { DiagSink } from './diag.js';
import { BugError } from './errors.js';

/** The band's steps in order (note kinds). */
export const STARTUP_BAND = ['started', 'version', 'session opened', 'mcp server', 'jev'] as const;
export type StartupStep = (typeof STARTUP_BAND)[number];

/** What the session line reports (counts only); null when the village runs without a store. */
export interface SessionOpenedCounts {
  id: string;
  messages: number;
  histories: number;
  summaries: number;
  /** Records skipped on read (malformed + future version). */
  skipped: number;
}

/** Pure order check: may `next` follow `last`? Each step at most once, never backwards. */
export function mayFollow(last: StartupStep, next: StartupStep): boolean {
  return STARTUP_BAND.indexOf(next) > STARTUP_BAND.indexOf(last);
}

/** Writes the band's lines to a sink opened by `openDiagLog` (so `started` is already written). */
export class StartupBand {
  private last: StartupStep = 'started';

  constructor(private readonly sink: DiagSink) {}

  /** `version: app=… profile=…` (profile: `debug` | `release`). */
  version(app: string, profile: 'debug' | 'release'): void {
    this.step('version');
    this.sink.note('version', { app, profile });
  }

  /** `session opened: id=… messages=… histories=… summaries=… skipped=…`, or `id=- persistence=off`. */
  sessionOpened(counts: SessionOpenedCounts | null): void {
    this.step('session opened');
    if (counts === null) this.sink.note('session opened', { id: null, persistence: 'off' });
    else this.sink.note('session opened', { ...counts });
  }

  /** `mcp server: address=127.0.0.1:{port}/mcp`. */
  mcpServer(port: number): void {
    this.step('mcp server');
    this.sink.note('mcp server', { address: `127.0.0.1:${port}/mcp` });
  }

  /** `jev: enabled=… model=…` — markers only. */
  jev(enabled: boolean, model: string | null): void {
    this.step('jev');
    this.sink.note('jev', { enabled, model });
  }

  private step(next: StartupStep): void {
    if (!mayFollow(this.last, next)) throw new BugError(`startup band: '${next}' after '${this.last}' breaks the fixed order`);
    this.last = next;
  }
}
