/**
 * What the GUI API acts on once the host is up: the host's lifecycle and chat surface plus the village
 * commands, answered as one `GuiState` (the re-read village, statuses and the message tail). Built from a Host
 * by `openGuiVillage`; nothing here talks to actors directly.
 */
import type { AgentMessage, CoreEvent } from '../../core/events.js';
import { FuseforksError } from '../../core/errors.js';
import { ScheduleStore } from '../../core/schedules/scheduleStore.js';
import { KeyringSecretStore } from '../../core/secrets/keyringSecretStore.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import { batchSet } from '../../core/world/startSet.js';
import type { Host } from '../../host/host.js';
import { VillageCommands, type VillageState } from '../../host/villageCommands.js';

/** Messages the client keeps (reference gui.md §4.1). */
export const MESSAGE_TAIL = 500;

/** Everything a screen shows; every mutation answers with it. Never contains a secret or a token. */
export interface GuiState extends VillageState {
  messages: AgentMessage[];
  appVersion: string;
}

/** The GUI's handle on a booted village. */
export class GuiVillage {
  constructor(
    private readonly host: Host,
    readonly commands: VillageCommands,
    private readonly appVersion: string,
  ) {}

  /** Current state with the message tail. */
  state(): GuiState {
    return { ...this.commands.state(), messages: this.host.supervisor.messages(MESSAGE_TAIL), appVersion: this.appVersion };
  }

  /** Subscribes to the CoreEvent stream. */
  subscribe(listener: (event: CoreEvent) => void): () => void {
    return this.host.events.subscribe(listener);
  }

  /** Starts one servant; resolves once it is running. */
  async start(id: string): Promise<GuiState> {
    await this.host.startAgent(id);
    return this.state();
  }

  /** Stops one servant. */
  async stop(id: string): Promise<GuiState> {
    await this.host.stopAgent(id);
    return this.state();
  }

  /**
   * Batch ▶ starts every batch-set servant not running (failed ones included); ■ stops the running ones.
   * Failures of single servants do not stop the others; the first one is rethrown after all were tried.
   */
  async batch(action: 'start' | 'stop'): Promise<GuiState> {
    const ids = batchSet(this.host.world());
    const status = new Map(this.host.supervisor.statuses().map((s) => [s.agentId, s.status]));
    const targets = ids.filter((id) => {
      const s = status.get(id);
      return action === 'start' ? s === 'idle' || s === 'failed' : s === 'running' || s === 'starting';
    });
    const results = await Promise.allSettled(targets.map((id) => (action === 'start' ? this.host.startAgent(id) : this.host.stopAgent(id))));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return this.state();
  }

  /** Cuts one servant's turn in flight. */
  async interrupt(id: string): Promise<GuiState> {
    await this.host.interrupt(id);
    return this.state();
  }

  /** Cuts every turn in flight. */
  async interruptAll(): Promise<GuiState> {
    await this.host.interruptAll();
    return this.state();
  }

  /** The user's message to one servant (NOT_RUNNING, MAILBOX_FULL). */
  send(to: string, text: string): GuiState {
    if (typeof text !== 'string' || text.trim() === '') {
      throw new FuseforksError('INVALID_REQUEST', 'The message is empty.', { fix: 'Type a message first.', details: { field: 'text' } });
    }
    this.host.sendUserMessage(to, text);
    return this.state();
  }

  /** Closes the host (stops agents, releases the lock). */
  async close(): Promise<void> {
    await this.host.close();
  }
}

/** The host's parts the commands need; uses the host's own schedule store and secrets when it exposes them. */
export async function openGuiVillage(host: Host, appVersion: string): Promise<GuiVillage> {
  const exposed = host as unknown as { schedules?: ScheduleStore; secrets?: SecretStore };
  const v = host.paths.village;
  // TODO(host): the host's ticker holds its own ScheduleStore; until Host exposes it, edits use a second one.
  const schedules =
    exposed.schedules ??
    (await ScheduleStore.open({ file: v.schedules, agentExists: (id) => host.world().agents.some((a) => a.id === id), diag: host.diag }));
  const commands = await VillageCommands.open({
    paths: v,
    supervisor: host.supervisor,
    schedules,
    secrets: exposed.secrets ?? new KeyringSecretStore(),
    emit: (event) => host.supervisor.bus.emit(event),
    sessions: {
      store: host.sessions,
      currentId: () => host.sessionId(),
      newSession: () => host.newSession(),
    },
  });
  return new GuiVillage(host, commands, appVersion);
}
