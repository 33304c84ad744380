/**
 * The one client store (reference gui.md §4, §7 items 1–2): boot gate, event stream subscribed BEFORE the first
 * read, single-flight re-read with one trailing run, and `mutate` that adopts the server's re-read answer (or
 * re-reads on failure) — never a locally assumed value. DOM-free: the transport is injected (browser: fetch and
 * a streamed fetch for the events; tests: anything).
 *
 * It is also the one place edits carry their base (core/village/revision.ts): every answer's `revisions` are
 * learnt, and every change sends in `If-Match` the revisions it was made from — by default the latest this tab
 * knows (what it shows now, right for one-click actions), or those a form pinned when it was seeded
 * (`pin()`). A refused stale edit (EDIT_CONFLICT) asks the person: reload (re-read, the form re-seeds), overwrite
 * (send it again over the current revision), or keep editing.
 */
import { reactive } from 'vue';
import type { BootStatus, CoreEvent, DoorView, ErrorPayload, GuiState } from './types.js';
import { adoptState, applyEvent, emptyView, type Toast, type View } from './view.js';

/** How the store reaches the server. */
export interface Transport {
  /** One JSON request; resolves with the status and parsed body (never rejects for an HTTP error status). */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>;
  /** Opens the event stream; returns its closer. */
  events(onEvent: (event: CoreEvent) => void): () => void;
  /** Timer seam (polling, toast expiry). */
  later(fn: () => void, ms: number): void;
  now(): number;
}

/** A refused request, carrying the server's error wire. */
export class ApiError extends Error {
  constructor(readonly wire: ErrorPayload) {
    super(wire.message);
  }
}

/** Boot polling period (ms), as the original. */
export const BOOT_POLL_MS = 250;
/** Info toasts vanish after this long (ms). */
export const INFO_TOAST_MS = 4000;

/** Reactive store state. */
export interface StoreState {
  boot: BootStatus;
  view: View;
  toasts: Toast[];
  selected: string | null;
  /** The door's last read state (status bar, door panel); null until read. */
  door: DoorView | null;
}

/** Translator used for toasts (the UI's `t`). */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/** The revisions (document → revision) a form was seeded from; a successful save moves them to the saved ones. */
export interface Basis {
  readonly revisions: Map<string, string>;
}

/** What the person chose when an edit was refused as stale. */
export type ConflictChoice = 'reload' | 'overwrite' | 'cancel';

/** Asks the person about a refused stale edit (the app's conflict dialog). */
export type ConflictChooser = (wire: ErrorPayload) => Promise<ConflictChoice>;

/** Options of one change. */
export interface MutateOptions {
  /** What the form was made from (`pin()` when it was seeded); default: the latest revisions this tab knows. */
  basis?: Basis;
  /** Re-seeds the form after "reload" (the state is re-read first either way). */
  reload?: () => unknown;
}

/** `If-Match` for a set of revisions (editBaseHeader.ts reads it). */
export function ifMatch(revisions: Iterable<string>): string {
  return [...revisions].map((r) => `"${r}"`).join(', ');
}

/** Builds the store over a transport. Without `chooseOnConflict` a stale edit is shown as an error toast. */
export function createStore(transport: Transport, t: Translate, chooseOnConflict?: ConflictChooser) {
  const state = reactive<StoreState>({ boot: { state: 'booting' }, view: emptyView(), toasts: [] as Toast[], selected: null, door: null });
  let toastSeq = 0;
  let inFlight: Promise<void> | null = null;
  let again = false;
  let closeEvents: (() => void) | null = null;
  /** Latest revision of every document this tab has been shown. */
  const known = new Map<string, string>();

  function toast(level: Toast['level'], text: string): void {
    const id = (toastSeq += 1);
    state.toasts.push({ id, level, text });
    if (level === 'info') transport.later(() => dismiss(id), INFO_TOAST_MS);
  }

  function dismiss(id: number): void {
    const i = state.toasts.findIndex((x) => x.id === id);
    if (i >= 0) state.toasts.splice(i, 1);
  }

  function errorText(wire: ErrorPayload): string {
    return `${wire.code}: ${wire.message}${wire.fix === undefined ? '' : ` — ${wire.fix}`}`;
  }

  /** The `revisions` of an answer, learnt into `into` (and always into what the tab knows). */
  function learn(body: unknown, into?: Map<string, string>): void {
    const revisions = body !== null && typeof body === 'object' ? (body as { revisions?: unknown }).revisions : undefined;
    if (revisions === null || typeof revisions !== 'object') return;
    for (const [doc, rev] of Object.entries(revisions as Record<string, unknown>)) {
      if (typeof rev !== 'string') continue;
      known.set(doc, rev);
      into?.set(doc, rev);
    }
  }

  async function call<T>(method: string, path: string, body?: unknown, basis?: Map<string, string>): Promise<T> {
    const headers = method === 'GET' ? undefined : { 'if-match': ifMatch((basis ?? known).values()) };
    const res = await transport.request(method, path, body, headers);
    if (res.status >= 400) {
      const wire = (res.body ?? {}) as Partial<ErrorPayload>;
      throw new ApiError({
        code: wire.code ?? 'BUG',
        message: wire.message ?? `HTTP ${res.status}`,
        retryable: wire.retryable ?? false,
        fault: wire.fault ?? 'system',
        ...(wire.fix ? { fix: wire.fix } : {}),
        ...(wire.details ? { details: wire.details } : {}),
      });
    }
    learn(res.body, basis);
    return res.body as T;
  }

  /** A snapshot of the revisions the tab shows now: pin it when a form is seeded, pass it to `mutate`. */
  function pin(): Basis {
    return { revisions: new Map(known) };
  }

  function adopt(next: GuiState, sentAt: number): void {
    adoptState(state.view, next, sentAt);
    const ids = next.world.agents.map((a) => a.id);
    if (state.selected === null || !ids.includes(state.selected)) state.selected = ids[0] ?? null;
  }

  /** Re-reads everything; concurrent callers share one read plus at most one trailing read. */
  function refresh(): Promise<void> {
    if (inFlight !== null) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      try {
        do {
          again = false;
          const sentAt = state.view.statusEvents;
          adopt(await call<GuiState>('GET', '/api/state'), sentAt);
        } while (again);
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }

  /**
   * One mutation: adopt the answer (it is the re-read state); on failure toast the error and re-read. A stale edit
   * asks the person first: overwrite sends it again over the current revision, reload re-reads and re-seeds.
   */
  async function mutate(method: string, path: string, body?: unknown, options: MutateOptions = {}): Promise<GuiState | null> {
    const basis = options.basis?.revisions ?? new Map(known);
    for (;;) {
      try {
        const sentAt = state.view.statusEvents;
        const answer = await call<GuiState>(method, path, body, basis);
        if (answer !== null && typeof answer === 'object' && 'world' in answer) adopt(answer, sentAt);
        return answer;
      } catch (error) {
        const wire = error instanceof ApiError ? error.wire : null;
        if (wire?.code === 'EDIT_CONFLICT' && chooseOnConflict !== undefined) {
          const choice = await chooseOnConflict(wire);
          const doc = wire.details?.doc;
          const current = wire.details?.current;
          if (choice === 'overwrite' && typeof doc === 'string' && typeof current === 'string') {
            basis.set(doc, current);
            continue;
          }
          await refresh().catch(() => undefined);
          if (choice === 'reload') await options.reload?.();
          return null;
        }
        toast('error', wire !== null ? errorText(wire) : String(error));
        await refresh().catch(() => undefined);
        return null;
      }
    }
  }

  /** A read that only toasts on failure. */
  async function read<T>(path: string): Promise<T | null> {
    try {
      return await call<T>('GET', path);
    } catch (error) {
      toast('error', error instanceof ApiError ? errorText(error.wire) : String(error));
      return null;
    }
  }

  function onEvent(event: CoreEvent): void {
    const effect = applyEvent(state.view, event, transport.now());
    if (effect.toast !== undefined) toast(effect.toast.level, t(effect.toast.key, effect.toast.params));
    if (effect.refresh) void refresh().catch(() => undefined);
  }

  /** Polls /api/boot until ready or failed; when ready: events first, then the first read. */
  async function init(): Promise<void> {
    state.boot = { state: 'booting' };
    for (;;) {
      let boot: BootStatus;
      try {
        boot = await call<BootStatus>('GET', '/api/boot');
      } catch (error) {
        state.boot = { state: 'failed', error: error instanceof ApiError ? error.wire : { code: 'BUG', message: String(error), retryable: true, fault: 'system' } };
        return;
      }
      if (boot.state === 'failed') {
        state.boot = boot;
        return;
      }
      if (boot.state === 'ready') break;
      await new Promise<void>((resolve) => transport.later(resolve, BOOT_POLL_MS));
    }
    closeEvents?.();
    closeEvents = transport.events(onEvent);
    try {
      await refresh();
      state.boot = { state: 'ready' };
    } catch (error) {
      // A read failure after boot is retryable (the overlay offers Retry), unlike a backend boot failure.
      state.boot = { state: 'failed', error: error instanceof ApiError ? { ...error.wire, retryable: true } : { code: 'BUG', message: String(error), retryable: true, fault: 'system' } };
    }
  }

  /** A read sent as a POST body (a query too long for a path): no re-read, no toast; a refusal throws ApiError for the caller to show. */
  function lookup<T>(path: string, body: unknown): Promise<T> {
    return call<T>('POST', path, body);
  }

  return { state, init, refresh, mutate, pin, read, lookup, toast, dismiss };
}

/** The store's public surface. */
export type Store = ReturnType<typeof createStore>;
