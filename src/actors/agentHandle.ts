/**
 * One agent worker thread and everything in flight on it (STYLE 19): the thread, the `init` → `ready` handshake on
 * parentPort, the private port (data plane plus comlink in both directions), the calls into the worker and the
 * interrupts waiting for their ack, the worker's calls and held reviews on the main side, and its life stage.
 * One idempotent `destroy(reason)` ends all of it: the worker's exit calls it (a crash unless the exit was
 * expected), and so do stop, reaping and shutdown. What routing holds for the worker (its envelope in flight, its
 * queue) is settled through the `release` callback, from that same teardown.
 */
import type { Remote } from 'comlink';
import { MessageChannel, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import {
  isDataMessage,
  type FromWorker,
  type InitMessage,
  type ReadyMessage,
  type ToWorker,
  type WorkerBatch,
} from './protocol.js';
import type { AgentMainSide } from './mainSide.js';
import { CallsInFlight, exposeOn, remoteOn, type WorkerSide } from './rpc.js';
import type { SummaryCallReply, SummaryCallRequest } from './summaryCall.js';
import { workerCrashed, workerStopped } from './workerErrors.js';
import { adoptPrewarmed } from './workerPrewarm.js';

/** How a worker ended. `error` is set when it threw or hit its resource limits. */
export interface WorkerExit {
  code: number;
  error: Error | null;
  wasReady: boolean;
}

/** Why a worker's life ended: `crashed` fails what was in flight with WORKER_CRASHED, `stopped` with NOT_RUNNING. */
export type TeardownReason = { kind: 'stopped' } | { kind: 'crashed'; reason: string };

/** A worker's life: `starting` until `ready`; `exiting` once its exit is expected (stop, fatal turn); `destroyed`. */
export type WorkerStage = 'starting' | 'ready' | 'exiting' | 'destroyed';

export interface AgentHandleCallbacks {
  onMessage(message: FromWorker): void;
  /** Before a batch's messages are handed out one by one: false = the caller keeps it and replays it later. */
  admit?(batch: WorkerBatch): boolean;
  /** Settles what routing holds for this worker; called once, by `destroy`, before `onExit`. */
  release?(reason: TeardownReason): void;
  onExit(exit: WorkerExit): void;
  /** What this worker may call on the main thread (bound to its agent); the handle owns it from here on. */
  mainSide: AgentMainSide;
}

/** What `spawn` needs besides the callbacks: the init message without its ports. */
export type InitPayload = Omit<InitMessage, 'port'>;

/** A live (or finished) agent worker. */
export class AgentHandle {
  /** Resolves on `ready`; rejects when the worker exits first (a bootstrap failure). */
  readonly ready: Promise<void>;
  /** Resolves with the exit once the thread is gone. */
  readonly exited: Promise<WorkerExit>;
  private readonly port: MessagePort;
  private readonly workerSide: Remote<WorkerSide>;
  private readonly calls = new CallsInFlight();
  /** Interrupts waiting for their `interruptAck`, by id. */
  private readonly interrupts = new Map<number, (cut: boolean) => void>();
  private nextInterrupt = 1;
  private stageNow: WorkerStage = 'starting';
  /** Stop, a fatal turn or a teardown asked this thread to end: its exit is then not a crash. */
  private expected = false;
  private isReady = false;
  private hasExited = false;
  private lastError: Error | null = null;
  private destroyed: Promise<void> | null = null;
  private readonly agentId: string;

  private constructor(
    private readonly worker: Worker,
    init: InitPayload,
    private readonly callbacks: AgentHandleCallbacks,
  ) {
    this.agentId = init.agent.id;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    port1.on('message', (msg: unknown) => {
      if (!isDataMessage(msg)) return;
      if (msg.kind !== 'batch') return callbacks.onMessage(msg as FromWorker);
      const batch = msg as WorkerBatch;
      // Acknowledgements never wait behind a held batch: interruptAll resolves when every worker answered.
      for (const item of batch.items) if (item.kind === 'interruptAck') this.interrupts.get(item.id)?.(item.cut);
      if (callbacks.admit?.(batch) === false) return;
      for (const item of batch.items) callbacks.onMessage(item);
    });
    exposeOn(port1, callbacks.mainSide);
    this.workerSide = remoteOn<WorkerSide>(port1);
    let markReady: () => void = () => {};
    let failBoot: (e: Error) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failBoot = reject;
    });
    // A rejected `ready` that nobody awaits must not become an unhandled rejection.
    this.ready.catch(() => {});
    worker.once('message', (msg: ReadyMessage) => {
      if (msg.kind === 'ready') {
        this.isReady = true;
        if (this.stageNow === 'starting') this.stageNow = 'ready';
        markReady();
      }
    });
    worker.on('error', (error) => {
      this.lastError = error;
    });
    this.exited = new Promise<WorkerExit>((resolve) => {
      worker.once('exit', (code) => {
        this.hasExited = true;
        const exit: WorkerExit = { code, error: this.lastError, wasReady: this.isReady };
        // An exit nobody asked for is a crash, whatever its code.
        void this.destroy(this.exitExpected ? { kind: 'stopped' } : { kind: 'crashed', reason: exit.error?.message ?? `exit code ${code}` });
        if (!this.isReady) failBoot(this.lastError ?? new Error(`worker exited with code ${code} before ready`));
        callbacks.onExit(exit);
        resolve(exit);
      });
    });
    const initMessage: InitMessage = { ...init, port: port2 };
    worker.postMessage(initMessage, [port2]);
  }

  /** Starts a worker from `url` and sends `init`. */
  static spawn(
    url: URL,
    init: InitPayload,
    callbacks: AgentHandleCallbacks,
    resourceLimits?: ResourceLimits,
  ): AgentHandle {
    const worker = adoptPrewarmed(url, resourceLimits) ?? new Worker(url, { name: `agent:${init.agent.id}`, resourceLimits });
    return new AgentHandle(worker, init, callbacks);
  }

  get alive(): boolean {
    return !this.hasExited;
  }

  /** Where this worker is in its life. */
  get stage(): WorkerStage {
    return this.stageNow;
  }

  /** True once stop, a fatal turn or a teardown asked the worker to exit (its exit is then not a crash). */
  get exitExpected(): boolean {
    return this.expected;
  }

  /** Calls, interrupts, main-side calls and held reviews still open on this worker (tests, leak checks). */
  get inFlightCount(): number {
    return this.calls.size + this.callbacks.mainSide.openCount;
  }

  /** Asks the worker to end by itself (stop, fatal turn): its exit is then expected, not a crash. */
  requestStop(): void {
    if (this.stageNow === 'destroyed') return;
    this.stageNow = 'exiting';
    this.expected = true;
    this.post({ kind: 'stop' });
  }

  /**
   * Ends this worker and everything in flight on it, once: open calls and interrupts reject (WORKER_CRASHED on a
   * crash, NOT_RUNNING on a stop), main-side calls abort, held reviews are withdrawn, routing settles what it holds
   * for the worker (`release`), the port closes and a live thread is terminated. A second call returns the first's
   * promise.
   */
  destroy(reason: TeardownReason): Promise<void> {
    if (this.destroyed !== null) return this.destroyed;
    this.stageNow = 'destroyed';
    if (!this.hasExited) this.expected = true;
    // comlink never settles a call whose peer is gone: fail the open ones with why.
    const error = reason.kind === 'crashed' ? workerCrashed(this.agentId, reason.reason) : workerStopped(this.agentId);
    this.calls.rejectAll(error);
    this.interrupts.clear();
    this.callbacks.mainSide.destroy();
    this.callbacks.release?.(reason);
    this.port.close();
    this.destroyed = this.hasExited ? Promise.resolve() : this.worker.terminate().then(() => this.exited).then(() => undefined);
    return this.destroyed;
  }

  get threadId(): number {
    return this.worker.threadId;
  }

  /** Posts on the data plane (ports in `transfer` move to the worker); a message to a finished worker is dropped. */
  post(message: ToWorker, transfer?: MessagePort[]): void {
    if (!this.hasExited && this.destroyed === null) this.port.postMessage(message, transfer);
  }

  /**
   * Cuts the turn handling `envelopeId` (a plain message and its `interruptAck`); true when one was cut. Rejects with
   * WORKER_CRASHED when the worker dies before answering (NOT_RUNNING when it had stopped normally).
   */
  interrupt(envelopeId: string): Promise<boolean> {
    const id = this.nextInterrupt++;
    const acked = new Promise<boolean>((resolve) => {
      this.interrupts.set(id, (cut) => {
        this.interrupts.delete(id);
        resolve(cut);
      });
    });
    this.post({ kind: 'interrupt', id, envelopeId });
    return this.calls.track(acked).finally(() => this.interrupts.delete(id));
  }

  /** "Summarize and continue" on this worker (comlink); WORKER_CRASHED / NOT_RUNNING when it dies first. */
  summarize(request: SummaryCallRequest): Promise<SummaryCallReply> {
    return this.calls.track<SummaryCallReply>(this.workerSide.summarize(request) as Promise<SummaryCallReply>);
  }

  /** Waits up to `timeoutMs` for the thread to end by itself; true when it did (else it is terminated). */
  async join(timeoutMs: number): Promise<boolean> {
    if (this.hasExited) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (outcome !== 'timeout') return true;
    await this.terminate();
    return false;
  }

  /** Ends the thread now as a stop (reaping a failed agent, or past the join bound). */
  terminate(): Promise<void> {
    return this.destroy({ kind: 'stopped' });
  }
}
