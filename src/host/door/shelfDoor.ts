/**
 * The one call the host makes for the door at boot (`serve` / GUI only): read the shelf's mcp_server.json,
 * open the door when it is on, and report a DoorStatus. A busy port or a blocked file is a status, never a
 * crash. The door module (and through it the SDK) is imported only when the door is on.
 */
import { isFuseforksError } from '../../core/errors.js';
import type { DoorManagement } from './doorManage.js';
import type { AskExternal, Door } from './openDoor.js';
import { doorStartupLine, doorStatusOf, readDoorSettings, saveDoorSettings, withDoorEnabled, type DoorStatus } from './doorSettings.js';

/** What the host gets back: the open door (or null), its status, and the startup-band line to write (or null). */
export interface ShelfDoor {
  door: Door | null;
  status: DoorStatus;
  /** `mcp server: 127.0.0.1:{port}/mcp` when listening. */
  startupLine: string | null;
}

/** Opens the door as the shelf file says. `file` = `villagePaths(dataDir).shelf.mcpServer`. */
export async function openShelfDoor(
  file: string,
  deps: { askExternal: AskExternal; manage?: DoorManagement; onError?: (error: unknown) => void; version?: string },
): Promise<ShelfDoor> {
  let read = await readDoorSettings(file);
  if (!read.ok || !read.settings.enabled) return { door: null, status: doorStatusOf(read, false, null), startupLine: null };
  let settings = read.settings;
  if (settings.token === null) {
    // Switched on by hand without a token: make one now, as the switch would have.
    settings = withDoorEnabled(settings, true);
    try {
      await saveDoorSettings(file, settings, read);
      read = { ok: true, settings, raw: { ...read.raw, token: settings.token } };
    } catch (error) {
      return { door: null, status: doorStatusOf(read, false, messageOf(error)), startupLine: null };
    }
  }
  try {
    const { openDoor } = await import('./openDoor.js');
    const door = await openDoor({
      port: settings.port,
      token: settings.token ?? '',
      askExternal: deps.askExternal,
      ...(deps.manage === undefined ? {} : { manage: deps.manage }),
      ...(deps.onError === undefined ? {} : { onError: deps.onError }),
      ...(deps.version === undefined ? {} : { version: deps.version }),
    });
    return { door, status: doorStatusOf(read, true, null), startupLine: doorStartupLine(door.port) };
  } catch (error) {
    return { door: null, status: doorStatusOf(read, false, messageOf(error)), startupLine: null };
  }
}

function messageOf(error: unknown): string {
  return isFuseforksError(error) ? error.message : error instanceof Error ? error.message : String(error);
}
