/**
 * One agent worker thread as the supervisor holds it: spawn, the `init` → `ready` handshake on
 * parentPort, the private port (data plane plus comlink in both directions), and a bounded join.
 * Knows nothing about routing.
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
import { CallsInFlight, exposeOn, remoteOn, type MainSide, type WorkerSide } from './rpc.js';
import type { SummaryCallReply, SummaryCallRequest } from './summaryCall.js';
import { workerCrashed, workerStopped } from './workerErrors.js';
import { adoptPrewarmed } from './workerPrewarm.js';

/** How a worker ended. `error` is set when it threw or hit its resource limits. */
export interface WorkerExit {
  code: number;
  error: Error | null;
  wasReady: boolean;
}

export interface AgentHandleCallbacks {
  onMessage(message: FromWorker): void;
  /** Before a batch's messages are handed out one by one: false = the caller keeps it and replays it later. */
  admit?(batch: WorkerBatch): boolean;
  onExit(exit: WorkerExit): void;
  /** What this worker may call on the main thread (bound to its agent). */
  mainSide: MainSide;
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
  private isReady = false;
  private hasExited = false;
  private lastError: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    init: InitPayload,
    callbacks: AgentHandleCallbacks,
  ) {
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
        markReady();
      }
    });
    worker.on('error', (error) => {
      this.lastError = error;
    });
    this.exited = new Promise<WorkerExit>((resolve) => {
      worker.once('exit', (code) => {
        this.hasExited = true;
        port1.close();
        const exit: WorkerExit = { code, error: this.lastError, wasReady: this.isReady };
        // comlink never settles a call whose peer is gone: fail the open ones with why.
        const crashed = exit.error !== null || code !== 0;
        this.calls.rejectAll(crashed ? workerCrashed(init.agent.id, exit.error?.message ?? `exit code ${code}`) : workerStopped(init.agent.id));
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

  get threadId(): number {
    return this.worker.threadId;
  }

  /** Posts on the data plane (ports in `transfer` move to the worker); a message to a finished worker is dropped. */
  post(message: ToWorker, transfer?: MessagePort[]): void {
    if (!this.hasExited) this.port.postMessage(message, transfer);
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

  /** Ends the thread now (reaping a failed agent, or past the join bound). */
  async terminate(): Promise<void> {
    if (this.hasExited) return;
    await this.worker.terminate();
    await this.exited;
  }
}
