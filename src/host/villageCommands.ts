/**
 * The village mutations a design screen needs (GUI), over the host's parts. Every command validates (pure edits
 * in `commands/`), writes world.json through the world store (unknown keys survive), re-reads the file, hands the
 * re-read world to the supervisor, emits `topologyChanged`, and returns the re-read state — so a caller never
 * patches its view with an assumed value (reference gui.md §1.3). Commands run one at a time.
 *
 * Every command takes the base it was made from (core/village/revision.ts): world.json's revision for world edits,
 * the schedules' for schedule edits; a stale one is refused (EDIT_CONFLICT) before anything is written. world.json
 * is re-read first when its text on disk is not the one last read or written here (a hand edit meanwhile), so the
 * check is against the file as it is.
 *
 * API keys are write-only here: a key goes into the secret store and only `hasKey` ever comes back.
 *
 * Longer than 400 lines on purpose: it is the one list of every `HostApi.village` command, each a few lines over the
 * pure edits in `commands/`, so the serial queue and the base checks live in one place.
 */
import { noSessionStore } from '../core/sessions/storedSession.js';
import { rm } from 'node:fs/promises';
import type { AgentStatus, CoreEvent } from '../core/events.js';
import type { NewSchedule, SchedulePatch, ScheduleStore } from '../core/schedules/scheduleStore.js';
import type { SecretStore } from '../core/secrets/secretStore.js';
import type { SessionMeta } from '../core/sessions/sessionMeta.js';
import type { SessionStore } from '../core/sessions/sessionStore.js';
import type { VillagePaths } from '../core/village/paths.js';
import type { WorldDocument } from '../core/village/worldStore.js';
import { requireBase, type EditBase, type Revisions } from '../core/village/revision.js';
import { HeldWorld, readWorldDocument, schedulesRevision, schedulesTarget } from './editedFiles.js';
import type { ModelTemplate, World } from '../core/world/types.js';
import * as agents from './commands/agentEdits.js';
import { checkWorkDir, requireWorkDir, setWorkDirs, type WorkDirCheck } from './commands/workDirBatch.js';
import { CommandApprovals, type CommandRequests } from './commands/commandApprovals.js';
import { testConnection, type ConnectionTestResult } from './commands/connectionTest.js';
import { scheduleView, type ProbeShelf, type ScheduleView } from './commands/probeShelf.js';
import { readSharedMcp, writeSharedMcp, type SharedMcpView } from './commands/sharedMcp.js';
import * as roles from './commands/roleEdits.js';
import * as schedules from './commands/scheduleEdits.js';
import { applyVillageSettings } from './commands/villageSettings.js';
import * as village from './commands/villageEdits.js';
import { loadWorldSchemas } from '../core/world/worldSchemas.js';
import type { VillageEdits } from './hostApi.js';
import { VillageFiles } from './villageFiles.js';
import { apiKeyEmpty } from '../core/errors/requestErrors.js';

export type { ScheduleView } from './commands/probeShelf.js';
export type { CommandDecision, CommandRequests, DecisionOutcome, RunPolicyView } from './commands/commandApprovals.js';

/** The parts of a host the commands act on (a `Host` supplies them; tests pass real ones on temp villages). */
export interface VillagePorts {
  paths: VillagePaths;
  /** The supervisor's world seam and lifecycle (stop before delete). */
  supervisor: {
    setWorld(world: World): void;
    stopAgent(id: string): Promise<void>;
    statuses(): Array<{ agentId: string; status: AgentStatus }>;
  };
  schedules: ScheduleStore;
  /**
   * The shelf's probe approvals and this village's id: the SAME instance the schedule ticker asks, so an
   * approval made here applies at the next firing without a restart. Null = no shelf (nothing approvable).
   */
  probes: ProbeShelf | null;
  secrets: SecretStore;
  emit(event: CoreEvent): void;
  /** Conversations; null when the village runs without a session store. */
  sessions: {
    store: SessionStore | null;
    currentId(): string | null;
  } | null;
  now?: () => number;
}

/** Everything a design screen shows, read back after every command. Never contains a secret. */
export interface VillageState {
  world: World;
  statuses: Array<{ agentId: string; status: AgentStatus }>;
  /** Template id → whether an API key is stored (the key itself never leaves the store). */
  hasKey: Record<string, boolean>;
  schedules: ScheduleView[];
  /** Set when schedules.json could not be read: schedule edits are refused until it is fixed. */
  schedulesBlocked: string | null;
  /** Set when world.json could not be parsed: every edit is refused until it is fixed. */
  worldReadOnly: string | null;
  sessions: { current: string | null; list: SessionMeta[] };
  /** `run` requests waiting for a person (the approvals badge and list), and run.json files that cannot be read. */
  commandRequests: CommandRequests;
  /** The revisions of world.json and of the schedules, the base of every edit made from this state. */
  revisions: Revisions;
}

/** The command surface (the host's edit engine behind `HostApi.village`); create with `open` or `fromDocument`. */
export class VillageCommands implements VillageEdits {
  private queue: Promise<unknown> = Promise.resolve();
  /** Agent files and the Ordinance (`HostApi.files`). */
  readonly files: VillageFiles;
  /** Command approvals and run.json allowlists (`HostApi.approvals`). */
  readonly approvals: CommandApprovals;

  private readonly held: HeldWorld;

  private constructor(
    private readonly ports: VillagePorts,
    doc: WorldDocument,
  ) {
    this.held = new HeldWorld(ports.paths, doc, (next) => {
      ports.supervisor.setWorld(next.world);
      ports.emit({ type: 'topologyChanged' });
    });
    this.files = new VillageFiles({ paths: ports.paths, world: () => this.doc.world });
    this.approvals = new CommandApprovals(ports.paths, () => this.doc.world);
  }

  /** Reads world.json (the host already bootstrapped it) and hands the world to the supervisor. */
  static async open(ports: VillagePorts): Promise<VillageCommands> {
    const doc = await readWorldDocument(ports.paths);
    ports.supervisor.setWorld(doc.world);
    return new VillageCommands(ports, doc);
  }

  /** Over the document the boot just loaded (its world is already the supervisor's): no second read. */
  static fromDocument(ports: VillagePorts, doc: WorldDocument): VillageCommands {
    return new VillageCommands(ports, doc);
  }

  /** The current state (no write). */
  state(): VillageState {
    const { world } = this.doc;
    const hasKey: Record<string, boolean> = {};
    for (const t of world.modelTemplates) hasKey[t.id] = safeHas(this.ports.secrets, t.id);
    const blocked = this.ports.schedules.blocked;
    const s = this.ports.sessions;
    return {
      world,
      statuses: this.ports.supervisor.statuses(),
      hasKey,
      schedules: this.ports.schedules.list().map((task) => scheduleView(task, this.ports.probes)),
      schedulesBlocked: blocked === null ? null : `${blocked.file}:${blocked.line}:${blocked.column} ${blocked.reason}`,
      worldReadOnly: this.doc.readOnly?.message ?? null,
      sessions: { current: s?.currentId() ?? null, list: s?.store?.list() ?? [] },
      commandRequests: this.approvals.list(),
      revisions: { [this.held.target.doc]: this.held.revision(), [schedulesTarget(this.ports.paths).doc]: this.schedulesRevision() },
    };
  }

  // ---- agents and ties -------------------------------------------------------------------------------------

  /** Adds a servant; answers the state and the new id. */
  async createAgent(input: agents.NewAgentInput, base?: EditBase): Promise<{ state: VillageState; id: string }> {
    let id = '';
    let state = await this.edit((w) => {
      const made = agents.createAgent(w, input);
      id = made.id;
      return made.world;
    }, base);
    // A role's Construct text is the new servant's Construct.md, as in the original.
    const construct = input.roleId == null ? '' : (state.world.roles.find((r) => r.id === input.roleId)?.defaults.construct ?? '');
    if (construct !== '') {
      await this.files.writeAgentFile(id, 'construct', construct);
      state = this.state();
    }
    return { state, id };
  }

  /**
   * Replaces one servant's spec (name, template, work folder, tools, ties, group, flags). A work folder that
   * changes is checked on disk first (absolute, existing, a readable folder) and stored normalised; one that is
   * refused throws INVALID_REQUEST (field workDir) naming the folder, why and the fix, and nothing is written.
   * An unchanged folder is not re-checked (renaming a servant whose folder went away still works).
   */
  async updateAgent(id: string, spec: unknown, base?: EditBase): Promise<VillageState> {
    const asked = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>)['workDir'] : undefined;
    const stored = this.doc.world.agents.find((a) => a.id === id)?.workDir ?? null;
    const checked = typeof asked === 'string' && asked.trim() !== '' && asked !== stored ? await requireWorkDir(asked) : undefined;
    const next = checked === undefined ? spec : { ...(spec as Record<string, unknown>), workDir: checked };
    return this.edit((w) => agents.updateAgent(w, id, next), base);
  }

  /** Stops the servant if it runs, removes it (and inbound ties), its folder agents/{id} and its schedules. */
  deleteAgent(id: string, base?: EditBase): Promise<VillageState> {
    return this.worldJob(base, async () => {
      agents.requireAgent(this.doc.world, id);
      const status = this.ports.supervisor.statuses().find((s) => s.agentId === id)?.status;
      if (status === 'running' || status === 'starting') await this.ports.supervisor.stopAgent(id);
      await this.save(agents.removeAgent(this.doc.world, id));
      await rm(this.ports.paths.agent(id).dir, { recursive: true, force: true });
      await this.ports.schedules.removeForAgent(id);
      return this.state();
    });
  }

  /** Sets the list order (`order` = index). */
  reorderAgents(ids: readonly string[], base?: EditBase): Promise<VillageState> {
    return this.edit((w) => agents.reorderAgents(w, ids), base);
  }

  /** Replaces one servant's outgoing ties. */
  setTies(id: string, targets: readonly string[], base?: EditBase): Promise<VillageState> {
    return this.edit((w) => agents.setTies(w, id, targets), base);
  }

  /** Stores a Kizuna node position (canvas pixels). */
  setPosition(id: string, x: number, y: number, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => agents.setPosition(w, id, { x, y }), base);
  }

  /** Checks a work folder without writing (the batch dialog's preview). */
  checkWorkDir(folder: string): Promise<WorkDirCheck> {
    return checkWorkDir(folder);
  }

  /** One work folder for several servants, checked first, then one atomic world.json write. */
  async setWorkDirs(ids: readonly string[], folder: string, base?: EditBase): Promise<VillageState> {
    const workDir = await requireWorkDir(folder);
    return this.edit((w) => setWorkDirs(w, ids, workDir), base);
  }

  // ---- village ---------------------------------------------------------------------------------------------

  /** Chooses or clears the reception. */
  setReception(agentId: string | null, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => village.setReception(w, agentId), base);
  }

  /** Sets or clears the name external clients are shown as. */
  setExternalName(name: string | null, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => village.setExternalName(w, name), base);
  }

  /** Adds or renames a group. */
  upsertGroup(input: village.GroupInput, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => village.upsertGroup(w, input).world, base);
  }

  /** Removes a group (its servants become ungrouped). */
  removeGroup(id: string, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => village.removeGroup(w, id), base);
  }

  // ---- roles and settings ---------------------------------------------------------------------------------------

  /** Adds or changes a role (its id is fixed once made). */
  upsertRole(role: unknown, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => roles.upsertRole(w, role), base);
  }

  /** Deletes a role; its servants keep working without one. */
  removeRole(id: string, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => roles.removeRole(w, id), base);
  }

  /** Gives a servant a role (or none); a role's Construct text replaces the servant's Construct.md (as the original). */
  applyRole(agentId: string, roleId: string | null, base?: EditBase): Promise<VillageState> {
    return this.worldJob(base, async () => {
      const next = roles.setAgentRole(this.doc.world, agentId, roleId);
      await this.save(next);
      if (roleId !== null) await this.files.writeAgentFile(agentId, 'construct', roles.requireRole(next, roleId).defaults.construct);
      return this.state();
    });
  }

  /** Your name, language, token budget, askTimeoutSecs, maxHops, external name (only the fields given). */
  updateSettings(input: unknown, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => applyVillageSettings(w, input), base);
  }

  /** One tiny request with the template as given (its key from this village's store): the reply or the failure. */
  testConnection(template: unknown): Promise<ConnectionTestResult> {
    return testConnection(template, this.ports.secrets);
  }

  // ---- model templates and keys ----------------------------------------------------------------------------

  /** Adds or replaces a model template. */
  upsertTemplate(template: unknown, base?: EditBase): Promise<VillageState> {
    return this.edit((w) => village.upsertTemplate(w, template, (id) => safeHas(this.ports.secrets, id)), base);
  }

  /** Rewrites every template at once (a fetched price table applied to the ones it names). */
  editTemplates(change: (templates: readonly ModelTemplate[]) => ModelTemplate[], base?: EditBase): Promise<VillageState> {
    return this.edit((w) => ({ ...w, modelTemplates: change(w.modelTemplates) }), base);
  }

  /** Removes a template (refused while used) and deletes its stored key. */
  removeTemplate(id: string, base?: EditBase): Promise<VillageState> {
    return this.worldJob(base, async () => {
      await this.save(village.removeTemplate(this.doc.world, id));
      if (safeHas(this.ports.secrets, id)) this.ports.secrets.delete(id);
      return this.state();
    });
  }

  /** Stores a template's API key (trimmed; never returned) and marks the template `keyring`. */
  setApiKey(templateId: string, key: string, base?: EditBase): Promise<VillageState> {
    return this.worldJob(base, async () => {
      const next = village.setCredential(this.doc.world, templateId, 'keyring');
      if (typeof key !== 'string' || key.trim() === '') {
        throw apiKeyEmpty();
      }
      this.ports.secrets.set(templateId, key.trim());
      await this.save(next);
      return this.state();
    });
  }

  /** Deletes a template's stored key and marks it `unset`. */
  clearApiKey(templateId: string, base?: EditBase): Promise<VillageState> {
    return this.worldJob(base, async () => {
      const next = village.setCredential(this.doc.world, templateId, 'unset');
      if (safeHas(this.ports.secrets, templateId)) this.ports.secrets.delete(templateId);
      await this.save(next);
      return this.state();
    });
  }

  // ---- schedules (commands/scheduleEdits.ts) ----------------------------------------------------------------

  /** Adds a schedule for an existing servant. */
  addSchedule(input: NewSchedule, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => schedules.addSchedule(p, input), base);
  }

  /** Changes chosen fields of a schedule (a `probe` goes through the same checks as `setScheduleProbe`). */
  updateSchedule(id: string, patch: SchedulePatch, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => schedules.updateSchedule(p, id, patch), base);
  }

  /** Pauses (false) or resumes (true) a schedule. */
  setScheduleEnabled(id: string, enabled: boolean, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => p.schedules.setEnabled(id, enabled), base);
  }

  /** Deletes a schedule; its probe approval goes too unless another schedule here runs the same probe. */
  removeSchedule(id: string, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => schedules.removeSchedule(p, id), base);
  }

  /** Sets (object) or clears (null) a schedule's pre-check; a new command is unapproved until `approveProbe`. */
  setScheduleProbe(id: string, probe: unknown, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => schedules.setScheduleProbe(p, id, probe), base);
  }

  /** Approves a schedule's pre-check on this shelf (only a person does this, through the GUI). */
  approveProbe(id: string, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => schedules.setProbeApproved(p, id, true), base);
  }

  /** Withdraws a schedule's pre-check approval: its firings are skipped as `unapproved` from then on. */
  revokeProbe(id: string, base?: EditBase): Promise<VillageState> {
    return this.scheduleEdit((p) => schedules.setProbeApproved(p, id, false), base);
  }

  // ---- shared MCP and conversations ------------------------------------------------------------------------

  /** The shared mcp.json text ("" when absent) and its revision. */
  readSharedMcp(): Promise<SharedMcpView> {
    return readSharedMcp(this.ports.paths);
  }

  /** Writes the shared mcp.json after checking it is a JSON object with an object `mcpServers` (and the base). */
  writeSharedMcp(text: string, base?: EditBase): Promise<SharedMcpView> {
    return this.serial(() => writeSharedMcp(this.ports.paths, text, base));
  }

  /** Copies a conversation up to `atSeq` (inclusive) into a new one; the current conversation stays current. */
  forkSession(id: string, atSeq: number): Promise<{ state: VillageState; id: string }> {
    return this.serial(async () => {
      const store = this.requireStore();
      const meta = await store.fork(id, atSeq);
      return { state: this.state(), id: meta.id };
    });
  }

  /** Writes exports/{id}.jsonl; answers its path and record count. */
  exportSession(id: string): Promise<{ path: string; records: number }> {
    return this.serial(async () => {
      const out = this.requireStore().exportJsonl(id);
      return { path: out.path, records: out.records };
    });
  }

  // ---- internals -------------------------------------------------------------------------------------------

  private hasAgent(id: string): boolean {
    return this.doc.world.agents.some((a) => a.id === id);
  }

  private requireSessions(): NonNullable<VillagePorts['sessions']> {
    const s = this.ports.sessions;
    if (s === null || s.store === null) {
      throw noSessionStore();
    }
    return s;
  }

  private requireStore(): SessionStore {
    return this.requireSessions().store as SessionStore;
  }

  /** One world edit: base → validate → save → re-read → supervisor → topologyChanged → state. */
  private edit(change: (world: World) => World, base: EditBase | undefined): Promise<VillageState> {
    return this.worldJob(base, async () => {
      // The edit functions check their input with the world.json schemas, which a running village loads only now.
      await loadWorldSchemas();
      await this.save(change(this.doc.world));
      return this.state();
    });
  }

  /** A job that writes world.json, in turn with the others, refused when `base` is not world.json's revision now. */
  private worldJob<T>(base: EditBase | undefined, job: () => Promise<T>): Promise<T> {
    return this.serial(async () => {
      await this.held.sync();
      requireBase(this.held.target, this.held.revision(), base);
      return job();
    });
  }

  private get doc(): WorldDocument {
    return this.held.doc;
  }

  private save(world: World): Promise<void> {
    return this.held.save(world);
  }

  private schedulesRevision(): string {
    return schedulesRevision(this.ports.paths, this.ports.schedules, this.ports.probes);
  }

  /** One schedule command, in turn with the others, refused on a stale base, answered with the re-read state. */
  private scheduleEdit(change: (ports: schedules.ScheduleEditPorts) => Promise<unknown>, base: EditBase | undefined): Promise<VillageState> {
    return this.serial(async () => {
      requireBase(schedulesTarget(this.ports.paths), this.schedulesRevision(), base);
      const { paths, probes } = this.ports;
      await change({ paths, probes, schedules: this.ports.schedules, agentExists: (id) => this.hasAgent(id), nowMs: this.ports.now ?? Date.now });
      return this.state();
    });
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** `has` that reads a refusing keyring as "no key" (the store's error is not a reason to fail a read). */
function safeHas(secrets: SecretStore, id: string): boolean {
  try {
    return secrets.has(id);
  } catch {
    return false;
  }
}
