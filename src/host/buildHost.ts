/**
 * `buildHost(paths, options)` — the one wiring used by the GUI, `ask`, `serve` and `openVillage`. A thin list of the
 * boot steps in their fixed order; each step lives in `bootSteps.ts`. The order matters twice: the village lock
 * comes before anything is opened (a refused start writes not even a log line into the holder's log), and the
 * startup band of `fuseforks.log` reads started → version → session → (mcp server) → jev.
 *
 * A failure after the lock closes exactly what was built, in the close order, then rethrows.
 */
import { evalsFacet } from './evals/evalsFacet.js';
import { bootMark } from '../core/bootTrace.js';
import type { FuseforksError } from '../core/errors.js';
import type { DiagLevel } from '../core/diag.js';
import { openDiagLog, type LogStderrMode } from '../core/log.js';
import { openSessionStore } from '../core/sessions/openSessionStore.js';
import { StartupBand } from '../core/startupBand.js';
import { checkSecretNames, openSecretStore, type SecretSource } from '../core/secrets/openSecretStore.js';
import type { SecretStore } from '../core/secrets/secretStore.js';
import type { RunApprovalMode } from '../core/tools/contract.js';
import type { ModelTemplate } from '../core/world/types.js';
import type { PlanReviewMode } from '../actors/protocol.js';
import { Supervisor } from '../actors/supervisor.js';
import {
  bootstrapWorldFile,
  connectSharedMcp,
  createHostDoor,
  createHostMcp,
  loadProbeApprovals,
  moveLegacyKeys,
  lockVillage,
  openHostDoor,
  openSchedules,
  pricingSource,
  registerBundledTools,
} from './bootSteps.js';
import { collectAttachments } from './attachmentGc.js';
import { CLOSE_GRACE_MS, closeHost, type HostParts } from './closeHost.js';
import { HealthTracker } from './health/hostHealth.js';
import { Host } from './host.js';
import type { HostApi } from './hostApi.js';
import { BlackboardCommands } from './commands/blackboardCommands.js';
import { JevCommands } from './jevCommands.js';
import { jevInit, noteJev } from './jevHost.js';
import type { HostPaths } from './hostPaths.js';
import { HostSessions, type BootSession } from './hostSessions.js';
import { VillageCommands } from './villageCommands.js';
import { promptMaterialReader } from './promptMaterial.js';
import { startScheduleTicker } from './scheduleWiring.js';
import type { ScheduleRunNowPorts } from './scheduleRunNow.js';
import { fireScheduleNow } from './fireScheduleNow.js';
import { SessionRecorder } from './sessionRecorder.js';
import { Summaries } from './summaries.js';

/** How a caller boots a village. Only these fields differ between the GUI, `ask` and `serve` (seed D1). */
export interface HostOptions {
  /** Written in the `version: app=… profile=…` line. */
  appVersion: string;
  /** `release` for built code (default), `debug` for a dev build. */
  profile?: 'debug' | 'release';
  /** Where API keys come from (the GUI always uses the keyring). */
  secrets: SecretSource;
  /** Construct the schedule ticker (GUI, serve). Off: `lastConsumedDueMs` is never touched. */
  runSchedules: boolean;
  /** Open the door when the shelf's mcp_server.json enables it (GUI, serve). */
  openDoor: boolean;
  runApproval?: RunApprovalMode;
  /** Let plan waves of `planReview` agents go out without a human (headless `--bypass-plan-review`). */
  bypassPlanReview?: boolean;
  /** Overrides the plan-review mode: the GUI passes 'ask' (a person reviews held waves). Default from bypassPlanReview. */
  planReview?: PlanReviewMode;
  /** Restart crashed workers (serve). */
  restartCrashed?: boolean;
  /** The reception loads its engine when it starts, not at its first request (`ask`: the request comes next). */
  loadReceptionEngineAtStart?: boolean;
  /** How log notes are mirrored on stderr. */
  stderrMode?: LogStderrMode;
  /** Lowest level of log notes mirrored on stderr (default info); the log file always gets every note. */
  stderrLevel?: DiagLevel;
  /** Environment for `--secrets env` and the locale (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** GUI only: create a fresh village when world.json is missing. Headless never creates one (VILLAGE_MISSING). */
  createIfMissing?: boolean;
  /** Which conversation the boot opens: latest (default, as the original) or a new one (`ask`). */
  session?: BootSession;
  /** Test seam: a ready secret store instead of `secrets`. */
  secretStore?: SecretStore;
  /** Test seam: the agents' worker entry. */
  workerUrl?: URL;
  /** Test seam: the schedule tick period (ms); default the ticker's 30 s. */
  scheduleTickMs?: number;
  /** Test seam: close grace (ms); default 30 s. */
  closeGraceMs?: number;
}

/** Boots the village at `paths`. Throws LOCK_HELD/LOCK_IO (nothing logged), VILLAGE_MISSING, CONFIG_PARSE, SESSION_STORE_LOCKED, SECRET_NAME_COLLISION. */
export async function buildHost(paths: HostPaths, options: HostOptions): Promise<HostApi> {
  const v = paths.village;
  const env = options.env ?? process.env;
  bootMark('host modules loaded');
  const lock = lockVillage(v);
  bootMark('lock taken');
  // Opened only now, with the lock held: a refused start never writes into the holder's log. Writes `started`.
  const log = openDiagLog({
    workspaceDir: v.workspace,
    stderrMode: options.stderrMode ?? 'none',
    ...(options.stderrLevel === undefined ? {} : { stderrLevel: options.stderrLevel }),
  });
  const parts: HostParts = { lock, log };
  try {
    const band = new StartupBand(log);
    band.version(options.appVersion, options.profile ?? 'release');
    const secrets = options.secretStore ?? openSecretStore(options.secrets, env);
    const worldDoc = await bootstrapWorldFile(v, secrets, log, options.createIfMissing === true, env);
    const world = worldDoc.world;
    bootMark('world read');
    moveLegacyKeys(secrets, world, log);
    const opened = openSessionStore({ workspaceDir: v.workspace, diag: log });
    parts.sessions = opened.store;
    bootMark('lmdb open');
    const supervisorRef: { current: Supervisor | null } = { current: null };
    const emit = (event: Parameters<Supervisor['bus']['emit']>[0]): void => supervisorRef.current?.bus.emit(event);
    const sessions = new HostSessions(opened.store, log, emit, (restoreFor, logTail) =>
      supervisorRef.current?.switchConversation(restoreFor, logTail),
    );
    band.sessionOpened(await sessions.openAtBoot(options.session ?? 'latest', new Set(world.agents.map((a) => a.id))));
    bootMark('session opened');
    await collectAttachments(v.workspace, Date.now(), log);
    const recorder = opened.store === null ? null : new SessionRecorder({ store: opened.store, sessionId: () => sessions.currentId(), diag: log, emit });
    parts.recorder = recorder;
    const schedules = await openSchedules(v, world, log);
    checkSecretNames(options.secrets, world.modelTemplates.map((t) => t.id));
    registerBundledTools();
    // Only constructed here (no SDK load, no child); the supervisor takes its port, connecting comes next.
    const mcp = createHostMcp(v, log, () => supervisorRef.current?.currentWorld().language ?? world.language, options.stderrMode ?? 'none', env, secrets);
    parts.mcp = mcp;
    const supervisor = new Supervisor({
      world,
      workspaceDir: v.workspace,
      runApproval: options.runApproval ?? 'required',
      // Headless: bypass when asked, else plan-review waves are unavailable (preflight already rejected them).
      planReview: options.planReview ?? (options.bypassPlanReview === true ? 'bypass' : 'unavailable'),
      backendMode: 'strict',
      apiKeyFor: (template) => apiKeyFor(template, secrets),
      jevFor: () => jevInit(v, secrets),
      material: promptMaterialReader(v, log),
      restore: (agentId) => sessions.restoreFor(agentId),
      ...(recorder === null ? {} : { recorder }),
      diag: log,
      restartCrashed: options.restartCrashed === true,
      loadReceptionEngineAtStart: options.loadReceptionEngineAtStart === true,
      externalTools: mcp.port,
      ...(options.workerUrl === undefined ? {} : { workerUrl: options.workerUrl }),
    });
    supervisorRef.current = supervisor;
    bootMark('supervisor built');
    parts.supervisor = supervisor;
    const health = new HealthTracker();
    supervisor.bus.onAny(health.observe);
    parts.health = health;
    await connectSharedMcp(mcp, log);
    // Before the door: the host (and so the door's askExternal) needs the approvals the ticker will share.
    const summaries = new Summaries({ supervisor, sessions, recorder, diag: log });
    const probes = await loadProbeApprovals(v, options.runSchedules, log);
    const village = VillageCommands.fromDocument(
      {
        paths: v,
        supervisor,
        schedules,
        // The ticker's own approvals instance: an approval made through the host counts at the very next firing.
        probes,
        secrets,
        emit,
        sessions: { store: sessions.store, currentId: () => sessions.currentId() },
      },
      worldDoc,
    );
    // The door asks through the host's own askExternal (as every face); it opens only after the host exists.
    const hostRef: { current: Host | null } = { current: null };
    const door = createHostDoor(
      options.openDoor,
      v,
      (client, text, signal) => (hostRef.current as Host).askExternal(client, text, { signal }),
      // The CLI beside this serve: agents with their live status, run-now (both through HostApi methods).
      {
        agents: () => (hostRef.current as Host).agents().map((a) => ({ agentId: a.agentId, status: a.status })),
        runScheduleNow: (idOrPrefix, also) => fireScheduleNow(hostRef.current as Host, idOrPrefix, also),
      },
      log,
      options.appVersion,
    );
    parts.door = door;
    const blackboard = new BlackboardCommands(() => supervisor.currentWorld());
    const jev = new JevCommands({ paths: v, secrets, world: () => supervisor.currentWorld() });
    const pricing = pricingSource({
      file: v.shelf.pricing,
      templates: () => supervisor.currentWorld().modelTemplates,
      editTemplates: (change) => village.editTemplates(change),
      diag: log,
    });
    const runNow: ScheduleRunNowPorts = {
      schedules,
      probes,
      workspaceDir: v.workspace,
      diag: log,
      language: () => supervisor.currentWorld().language,
      status: (id) => supervisor.statuses().find((s) => s.agentId === id)?.status,
      sendSystemMessage: (to, text, onChainEnd) => supervisor.sendSystemMessage(to, text, onChainEnd),
      newSession: () => sessions.newSession(new Set(supervisor.currentWorld().agents.map((a) => a.id))),
      summarize: (agentIds) => summaries.summarize(agentIds),
    };
    const evals = evalsFacet({ dataDir: v.dataDir, workspace: v.workspace, jevFile: v.shelf.jev, secrets, world: () => supervisor.currentWorld(), host: () => hostRef.current as Host });
    const host = new Host({ paths, supervisor, sessions, parts, graceMs: options.closeGraceMs ?? CLOSE_GRACE_MS, village, door, blackboard, jev, log, summaries, pricing, runNow, evals });
    hostRef.current = host;
    await openHostDoor(door, band, log);
    await noteJev(v, world, secrets, log);
    // village_id exists (probes) before this starts; under ask nothing is constructed.
    const ticker = startScheduleTicker(options.runSchedules, {
      schedules,
      supervisor,
      probes,
      workspaceDir: v.workspace,
      diag: log,
      newSession: () => sessions.newSession(new Set(supervisor.currentWorld().agents.map((a) => a.id))),
      onTick: health.tick,
      summarizeAfter: (agentIds) => summaries.summarize(agentIds),
      ...(options.scheduleTickMs === undefined ? {} : { intervalMs: options.scheduleTickMs }),
    });
    bootMark('host built');
    parts.stopDeliveries = async () => {
      await ticker?.stop();
    };
    return host;
  } catch (error) {
    await closeHost(parts, options.closeGraceMs ?? CLOSE_GRACE_MS);
    throw error as FuseforksError;
  }
}

/** A template's key from the chosen store; null when none is needed or none is stored (the worker then refuses). */
function apiKeyFor(template: ModelTemplate, secrets: SecretStore): string | null {
  if (template.credential === 'not_required') return null;
  try {
    return secrets.get(template.id);
  } catch {
    // A keyring that refuses reads like "no key": the worker's factory names the fix (LLM_CONFIG).
    return null;
  }
}
