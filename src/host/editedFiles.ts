/**
 * The two documents the village commands edit in memory and on disk, with their revisions (core/village/revision.ts):
 *
 * - world.json: the document last read or written here; its revision is made from that text. When the text on disk
 *   is not that one (a hand edit meanwhile), `sync` re-reads it before an edit is checked, so the check is against
 *   the file as it is (an unparseable file is refused, never adopted, never overwritten);
 * - the schedules: the rows as the dialog shows them (approvals included), without the due the ticker consumes at
 *   every firing, so a firing never makes an open dialog stale.
 */
import type { ScheduleStore } from '../core/schedules/scheduleStore.js';
import type { VillagePaths } from '../core/village/paths.js';
import { canonicalJson, fileTarget, revisionOf, type EditTarget, type Revision } from '../core/village/revision.js';
import { loadWorld, readTextIfPresent, saveWorld, systemLocale, type WorldDocument } from '../core/village/worldStore.js';
import type { World } from '../core/world/types.js';
import { scheduleView, type ProbeShelf } from './commands/probeShelf.js';
import { unparsedNotOverwritten, worldDisappeared } from '../core/errors/configErrors.js';

/** world.json as the commands hold it. `adopted` runs for every document taken in (save, re-read). */
export class HeldWorld {
  readonly target: EditTarget;
  /** Hashed once per document taken in: every state answer carries it. */
  private currentRevision: Revision;

  constructor(
    private readonly paths: VillagePaths,
    private current: WorldDocument,
    private readonly adopted: (doc: WorldDocument) => void,
  ) {
    this.target = fileTarget(paths.dataDir, paths.world);
    this.currentRevision = revisionOf(this.target.doc, current.text ?? '');
  }

  get doc(): WorldDocument {
    return this.current;
  }

  /** The revision of the text last read or written. */
  revision(): Revision {
    return this.currentRevision;
  }

  /** Re-reads world.json when its text is not the one last read or written here. */
  async sync(): Promise<void> {
    if ((await readTextIfPresent(this.paths.world)) === this.current.text) return;
    const load = await loadWorld(this.paths, { locale: systemLocale() });
    if (load.kind === 'missing') throw worldDisappeared(this.paths.world);
    // A file that no longer parses is not adopted (the running agents keep their world) and not overwritten.
    if (load.kind === 'unreadable') throw unparsedNotOverwritten(this.paths.world, load.error);
    this.adopt(load.doc);
  }

  /** Writes `world` (unknown keys kept), then takes in the re-read file. */
  async save(world: World): Promise<void> {
    await saveWorld(this.current, world);
    this.adopt(await readWorldDocument(this.paths));
  }

  private adopt(doc: WorldDocument): void {
    this.current = doc;
    this.currentRevision = revisionOf(this.target.doc, doc.text ?? '');
    this.adopted(doc);
  }
}

/** world.json as it is now (CONFIG_IO when it disappeared). */
export async function readWorldDocument(paths: VillagePaths): Promise<WorldDocument> {
  const load = await loadWorld(paths, { locale: systemLocale() });
  if (load.kind === 'missing') {
    throw worldDisappeared(paths.world);
  }
  return load.doc;
}

/** The schedules as a document. */
export function schedulesTarget(paths: VillagePaths): EditTarget {
  return fileTarget(paths.dataDir, paths.schedules);
}

/** The schedules' revision: the rows as the dialog shows them, without the consumed due. */
export function schedulesRevision(paths: VillagePaths, schedules: ScheduleStore, probes: ProbeShelf | null): Revision {
  const rows = schedules.list().map((task) => {
    const { lastConsumedDueMs: _consumed, ...shown } = scheduleView(task, probes);
    return shown;
  });
  return revisionOf(schedulesTarget(paths).doc, canonicalJson(rows));
}
