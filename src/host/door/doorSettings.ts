/**
 * The door's shelf file `{dataDir}/mcp_server.json` = `{enabled=false, port=39641, token?}` (reference ops.md
 * §5.2). It lives on the shelf, not in the village, so sharing a village never opens a door. The token
 * (32 hex chars, crypto random) is made when the door is first switched on and kept until regenerated.
 * Written with mode 0600. An unreadable or broken file keeps the door closed and blocks saves (never
 * overwritten); unknown keys survive our writes.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { FuseforksError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import { readJsonObject } from '../../core/village/jsonObjectText.js';
import { doorSettingsBroken, settingsFileUnreadable } from '../../core/errors/configErrors.js';

/** Default door port. */
export const DOOR_DEFAULT_PORT = 39641;
/** The endpoint path; nothing else is served. */
export const DOOR_PATH = '/mcp';

/** The door's settings. `token` is null until the door is first enabled. */
export interface DoorSettings {
  enabled: boolean;
  port: number;
  token: string | null;
}

/** A read of the shelf file: usable settings (plus the raw object, for unknown keys) or why it is blocked. */
export type DoorSettingsRead =
  | { ok: true; settings: DoorSettings; raw: Record<string, unknown> }
  | { ok: false; error: FuseforksError };

/** What the GUI and `serve` show: ON and listening are separate, because a busy port is ON-but-closed. */
export interface DoorStatus {
  enabled: boolean;
  listening: boolean;
  port: number;
  /** The last bind or read failure, as a message (never the token). */
  lastError: string | null;
  /** The shelf file is unreadable: the door stays closed and saves are refused. */
  blocked: boolean;
}

const DEFAULTS: DoorSettings = { enabled: false, port: DOOR_DEFAULT_PORT, token: null };

/** A fresh token: 16 crypto-random bytes as 32 lowercase hex chars. */
export function newDoorToken(): string {
  return randomBytes(16).toString('hex');
}

/** Validates the parsed JSON of mcp_server.json. Pure. */
export function parseDoorSettings(text: string, file: string): DoorSettingsRead {
  if (text.trim() === '') return { ok: true, settings: { ...DEFAULTS }, raw: {} };
  const read = readJsonObject(text);
  if (!read.ok) return { ok: false, error: doorSettingsBroken(file, read.reason) };
  const raw = read.value;
  const enabled = raw.enabled ?? DEFAULTS.enabled;
  const port = raw.port ?? DEFAULTS.port;
  const token = raw.token ?? null;
  if (typeof enabled !== 'boolean') return { ok: false, error: doorSettingsBroken(file, '"enabled" must be true or false') };
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    return { ok: false, error: doorSettingsBroken(file, '"port" must be an integer from 1 to 65535') };
  }
  if (token !== null && (typeof token !== 'string' || !/^[0-9a-f]{32}$/i.test(token))) {
    return { ok: false, error: doorSettingsBroken(file, '"token" must be 32 hex characters') };
  }
  return { ok: true, settings: { enabled, port, token }, raw };
}

/** Reads the shelf file; missing = defaults (off). Never throws. */
export async function readDoorSettings(file: string): Promise<DoorSettingsRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, settings: { ...DEFAULTS }, raw: {} };
    return { ok: false, error: settingsFileUnreadable(file, code, 'the door stays closed and settings are not saved', error) };
  }
  return parseDoorSettings(text, file);
}

/** The settings with the door switched on or off; switching on makes the token when there is none. Pure but for the random source. */
export function withDoorEnabled(settings: DoorSettings, enabled: boolean, makeToken: () => string = newDoorToken): DoorSettings {
  return { ...settings, enabled, token: enabled && settings.token === null ? makeToken() : settings.token };
}

/** Writes the settings (mode 0600), keeping unknown keys of the last good read; refused when that read failed. */
export async function saveDoorSettings(file: string, next: DoorSettings, prior: DoorSettingsRead): Promise<void> {
  if (!prior.ok) throw prior.error;
  const out: Record<string, unknown> = { ...prior.raw, enabled: next.enabled, port: next.port };
  if (next.token === null) delete out.token;
  else out.token = next.token;
  await writeFileAtomic(file, `${JSON.stringify(out, null, 2)}\n`, { mode: 0o600 });
}

/** The status before any bind attempt (closed); the host updates `listening` / `lastError` from openDoor. */
export function doorStatusOf(read: DoorSettingsRead, listening: boolean, lastError: string | null): DoorStatus {
  if (!read.ok) return { enabled: false, listening: false, port: DOOR_DEFAULT_PORT, lastError: read.error.message, blocked: true };
  return { enabled: read.settings.enabled, listening, port: read.settings.port, lastError, blocked: false };
}

/** The startup-band line the host writes when the door listens. */
export function doorStartupLine(port: number): string {
  return `mcp server: 127.0.0.1:${port}${DOOR_PATH}`;
}
