/**
 * VillageCommands over a real temp village for host tests: real files, a small recorder in place of the
 * supervisor (the supervisor is not under test there; the GUI e2e drives a real one).
 */
import { isFuseforksError } from '../../../src/core/errors.js';
import type { AgentStatus, CoreEvent } from '../../../src/core/events.js';
import { ScheduleStore } from '../../../src/core/schedules/scheduleStore.js';
import type { SecretStore } from '../../../src/core/secrets/secretStore.js';
import type { VillagePaths } from '../../../src/core/village/paths.js';
import type { World } from '../../../src/core/world/types.js';
import { VillageCommands } from '../../../src/host/villageCommands.js';

/** What the recorder saw; the arrays and set are the caller's, filled in place. */
export interface CommandsRecorder {
  events: CoreEvent[];
  worlds: World[];
  stopped: string[];
  running: Set<string>;
}

/** Opens the commands on `paths` (world.json must exist), over `schedules` when the test drives the store too. */
export async function openCommands(paths: VillagePaths, secrets: SecretStore, rec: CommandsRecorder, store?: ScheduleStore): Promise<VillageCommands> {
  const schedules = store ?? (await ScheduleStore.open({ file: paths.schedules }));
  return VillageCommands.open({
    paths,
    supervisor: {
      setWorld: (w) => rec.worlds.push(w),
      stopAgent: async (id) => {
        rec.stopped.push(id);
        rec.running.delete(id);
      },
      statuses: () => (rec.worlds.at(-1)?.agents ?? []).map((a) => ({ agentId: a.id, status: (rec.running.has(a.id) ? 'running' : 'idle') as AgentStatus })),
    },
    schedules,
    probes: null,
    secrets,
    emit: (e) => rec.events.push(e),
    sessions: null,
  });
}

/** The error code a command is refused with ('ok' when it is not): tests compare codes, not messages. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    return isFuseforksError(error) ? error.code : String(error);
  }
}
