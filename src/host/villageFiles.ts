/**
 * The village's text files a design screen edits, apart from world.json (`HostApi.files`): each agent's SKILL.md /
 * Memory.md / Construct.md / mcp.json / run.json and the village Ordinance.md. Every write is atomic, checks JSON
 * with the runtime's own parsers and is refused over a file that changed since the editor read it (its base, a
 * revision: core/village/revision.ts). Writes run one at a time.
 */
import { writeFileAtomic } from '../core/village/atomicWrite.js';
import type { VillagePaths } from '../core/village/paths.js';
import { readOrdinance } from '../core/village/promptFiles.js';
import type { World } from '../core/world/types.js';
import { readAgentFile, writeAgentFile, type AgentFileView } from './commands/agentFiles.js';
import { listWorkFiles, type WorkFileList } from './commands/workFolderFiles.js';
import type { VillageFilesApi } from './hostApi.js';
import { textNotString } from '../core/errors/requestErrors.js';
import { fileTarget, requireContentBase, revisionsOf, type EditBase, type EditTarget, type Revisions } from '../core/village/revision.js';

export type { AgentFileView, EditableAgentFile } from './commands/agentFiles.js';

/** What the files need from the host. */
export interface VillageFilesPorts {
  paths: VillagePaths;
  /** The current world (agent ids are checked against it). */
  world(): World;
}

/** The Ordinance as the editor shows it. */
export interface OrdinanceView {
  file: string;
  text: string;
  revisions: Revisions;
}

/** Agent files and the Ordinance. */
export class VillageFiles implements VillageFilesApi {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly ports: VillageFilesPorts) {}

  // ---- agent files ----------------------------------------------------------------------------------------------

  /** One agent file as text (JSON files say when they cannot be used). */
  readAgentFile(agentId: string, kind: unknown): Promise<AgentFileView> {
    return readAgentFile(this.ports.paths, this.ports.world(), agentId, kind);
  }

  /** Saves one agent file; refused when `base` is not the file's revision now or a JSON text would not load. */
  writeAgentFile(agentId: string, kind: unknown, text: unknown, base?: EditBase): Promise<AgentFileView> {
    return this.serial(() => writeAgentFile(this.ports.paths, this.ports.world(), agentId, kind, text, base));
  }

  /** Paths in the agent's work folder for the chat's `@` completion (confined like the file tools). */
  listWorkFiles(agentId: string, query: unknown): Promise<WorkFileList> {
    return listWorkFiles(this.ports.world(), agentId, query);
  }

  // ---- Ordinance --------------------------------------------------------------------------------------------------

  /** The village rules placed at the top of every agent's system prompt. */
  async readOrdinance(): Promise<OrdinanceView> {
    const text = await readOrdinance(this.ports.paths);
    return { file: this.ports.paths.ordinance, text, revisions: revisionsOf(this.ordinanceTarget, text) };
  }

  /** Saves Ordinance.md (applies from each agent's next turn); refused when `base` is not its revision now. */
  writeOrdinance(text: unknown, base?: EditBase): Promise<OrdinanceView> {
    return this.serial(async () => {
      if (typeof text !== 'string') {
        throw textNotString('Ordinance');
      }
      requireContentBase(this.ordinanceTarget, await readOrdinance(this.ports.paths), base);
      await writeFileAtomic(this.ports.paths.ordinance, text);
      return this.readOrdinance();
    });
  }

  private get ordinanceTarget(): EditTarget {
    return fileTarget(this.ports.paths.dataDir, this.ports.paths.ordinance);
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
