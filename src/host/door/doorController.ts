/**
 * The door as a host owns it: the shelf file `mcp_server.json` and, in a host that serves (GUI, `serve`), the
 * open MCP server. Every change writes the file first (atomically, unknown keys kept, refused when the file could
 * not be read) and then makes the live door match it — so the file is always what the next start will do.
 * A host that does not serve (`ask`, management commands) only writes the file.
 *
 * Switching and the port take a base (core/village/revision.ts): the revision of the settings a person edits (on,
 * port and keys this build does not know; the token is not part of it, rotating it is its own action).
 */
import { doorStatusOf, newDoorToken, readDoorSettings, saveDoorSettings, withDoorEnabled, type DoorSettings, type DoorStatus } from './doorSettings.js';
import type { DoorManagement } from './doorManage.js';
import type { AskExternal, Door } from './openDoor.js';
import { openShelfDoor } from './shelfDoor.js';
import { doorPortInvalid } from '../../core/errors/requestErrors.js';
import { dirname } from 'node:path';
import { canonicalJson, fileTarget, requireContentBase, revisionsOf, type EditBase, type EditTarget, type Revisions } from '../../core/village/revision.js';
import type { DoorSettingsRead } from './doorSettings.js';

/** What a caller sees of the door: the shelf settings, whether it listens here, never the token itself. */
export interface DoorView extends DoorStatus {
  /** A token exists (the door was switched on at least once). */
  hasToken: boolean;
  /** This process opens and closes the door live; false = the change takes effect at the next `serve` / GUI start. */
  live: boolean;
  /** The settings' revision: the base of a switch or a port change made from this view. */
  revisions: Revisions;
}

/** What the door calls and reports through. */
export interface DoorDeps {
  askExternal: AskExternal;
  /** The management routes' host methods (agents, run-now); a host that serves the door passes them. */
  manage?: DoorManagement;
  onError?: (error: unknown) => void;
  version?: string;
}

/** One door per host. Changes run one at a time. */
export class DoorController {
  private door: Door | null = null;
  private lastError: string | null = null;
  /** What the file said at the last open or change (serve's heartbeat reads it without a file read). */
  private enabled = false;
  private port = 0;
  private queue: Promise<unknown> = Promise.resolve();

  /** `file` = the shelf's mcp_server.json; `live` = this host serves the door. */
  constructor(
    readonly file: string,
    /** This host opens and closes the door (GUI, serve). */
    readonly live: boolean,
    private readonly deps: DoorDeps,
  ) {}

  /** For health: null when the door is off (or this host does not serve it), else whether it listens and where. */
  health(): { listening: boolean; port: number } | null {
    if (!this.live || !this.enabled) return null;
    return { listening: this.door !== null, port: this.door?.port ?? this.port };
  }

  /** Opens the door as the file says (live hosts only); a busy port or a broken file is a status, never a throw. */
  open(): Promise<DoorView> {
    return this.serial(async () => {
      await this.reconcile();
      return this.view();
    });
  }

  status(): Promise<DoorView> {
    return this.view();
  }

  setEnabled(enabled: boolean, base?: EditBase): Promise<DoorView> {
    return this.change((settings) => withDoorEnabled(settings, enabled), base);
  }

  setPort(port: number, base?: EditBase): Promise<DoorView> {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      return Promise.reject(
        doorPortInvalid(port),
      );
    }
    return this.change((settings) => ({ ...settings, port }), base);
  }

  async token(): Promise<string | null> {
    const read = await readDoorSettings(this.file);
    if (!read.ok) throw read.error;
    return read.settings.token;
  }

  async rotateToken(): Promise<string> {
    const token = newDoorToken();
    await this.change((settings) => ({ ...settings, token }), undefined);
    return token;
  }

  /** Closes the live door (host close). Idempotent. */
  close(): Promise<void> {
    return this.serial(async () => {
      const door = this.door;
      this.door = null;
      await door?.close();
    });
  }

  private change(edit: (settings: DoorSettings) => DoorSettings, base: EditBase | undefined): Promise<DoorView> {
    return this.serial(async () => {
      const read = await readDoorSettings(this.file);
      if (!read.ok) throw read.error;
      requireContentBase(this.target, settingsContent(read), base);
      await saveDoorSettings(this.file, edit(read.settings), read);
      await this.reconcile();
      return this.view();
    });
  }

  /** Makes the live door match the file: closed, then reopened when the file says on (new port or token included). */
  private async reconcile(): Promise<void> {
    if (!this.live) return;
    const door = this.door;
    this.door = null;
    await door?.close();
    const opened = await openShelfDoor(this.file, this.deps);
    this.door = opened.door;
    this.lastError = opened.status.lastError;
    this.enabled = opened.status.enabled;
    this.port = opened.status.port;
  }

  private async view(): Promise<DoorView> {
    const read = await readDoorSettings(this.file);
    const listening = this.door !== null;
    const status = doorStatusOf(read, listening, read.ok ? this.lastError : null);
    return {
      ...status,
      ...(this.door === null ? {} : { port: this.door.port }),
      hasToken: read.ok && read.settings.token !== null,
      live: this.live,
      revisions: revisionsOf(this.target, settingsContent(read)),
    };
  }

  /** The shelf file as a document (it sits at the top of the data dir). */
  private get target(): EditTarget {
    return fileTarget(dirname(this.file), this.file);
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}


/** What the settings' revision is made of: the file without its token (a broken file: why it is broken). */
function settingsContent(read: DoorSettingsRead): string {
  if (!read.ok) return `broken: ${read.error.message}`;
  const { token: _token, ...rest } = { ...read.raw, ...read.settings };
  return canonicalJson(rest);
}
