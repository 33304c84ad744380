/**
 * Where a host lives on disk (seed D2): only the data dir is held; the workspace is always derived from it, so
 * the two can never disagree. Every other path comes from `villagePaths`.
 */
import { villagePaths, type VillagePaths } from '../core/village/paths.js';

/** The one input of a host's location: `{dataDir}` (shelf) with `{dataDir}/workspace` (village) inside. */
export class HostPaths {
  /** Absolute data dir (resolved against the current directory once, at construction). */
  readonly dataDir: string;
  /** Every file of the village and shelf, derived from `dataDir`. */
  readonly village: VillagePaths;

  constructor(dataDir: string) {
    this.village = villagePaths(dataDir);
    this.dataDir = this.village.dataDir;
  }

  /** Absolute `{dataDir}/workspace`. */
  get workspace(): string {
    return this.village.workspace;
  }
}
