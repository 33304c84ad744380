/**
 * `fuseforks-cli door status|enable|disable|token`: the MCP door on the shelf, through `HostApi.door`. `status` is
 * read-only and also answers while another process holds the village (from the shelf file; whether that process
 * listens is its own business). `token` prints the bearer token an MCP client needs — on stdout only, as asked.
 */
import { jsonText } from '../jsonFormat.js';
import { villagePaths } from '../../core/village/paths.js';
import { baseOf } from '../../core/village/revision.js';
import { doorStatusOf, readDoorSettings } from '../../host/door/doorSettings.js';
import type { DoorView } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';

/** What every door command takes. */
export interface DoorOptions {
  dataDir: string;
  json: boolean;
}

/** One line for people: on/off, listening, where, why not. */
export function doorLine(view: DoorView | (Omit<DoorView, 'live' | 'revisions'> & { live: null })): string {
  if (view.blocked) return `door: blocked — ${view.lastError ?? 'the shelf file cannot be read'}`;
  const state = view.enabled ? 'on' : 'off';
  const where = `127.0.0.1:${view.port}/mcp`;
  const listening = view.live === null ? ' (the village is open in another process; ask it whether it listens)' : view.listening ? `, listening on ${where}` : `, port ${view.port}${view.enabled ? ' (takes effect when serve or the GUI opens the village)' : ''}`;
  const token = view.hasToken ? '' : ', no token yet (made when first switched on)';
  return `door: ${state}${listening}${token}${view.lastError !== null && !view.blocked ? ` — last error: ${view.lastError}` : ''}`;
}

function print(view: DoorView | (Omit<DoorView, 'live' | 'revisions'> & { live: null }), options: DoorOptions, output: CliOutput): void {
  output.stdout(options.json ? jsonText(view) : doorLine(view));
}

/** `door status`: through HostApi, or from the shelf file while the village is held. */
export async function runDoorStatus(options: DoorOptions, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(options.dataDir, 'door status', output, (host) => host.door.status(), true);
  if (managed.ok) {
    print(managed.value, options, output);
    return EXIT.ok;
  }
  if (!managed.held) return managed.exit;
  const read = await readDoorSettings(villagePaths(options.dataDir).shelf.mcpServer);
  const status = doorStatusOf(read, false, null);
  print({ ...status, hasToken: read.ok && read.settings.token !== null, live: null }, options, output);
  return EXIT.ok;
}

/** `door enable [--port N]` / `door disable`. */
export async function runDoorSwitch(options: DoorOptions & { enabled: boolean; port?: number }, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(options.dataDir, `door ${options.enabled ? 'enable' : 'disable'}`, output, async (host) => {
    // Each change carries the revision it was read at, as the GUI's do (core/village/revision.ts).
    let seen = await host.door.status();
    if (options.port !== undefined) seen = await host.door.setPort(options.port, baseOf(seen));
    return host.door.setEnabled(options.enabled, baseOf(seen));
  });
  if (!managed.ok) return managed.exit;
  print(managed.value, options, output);
  return EXIT.ok;
}

/** `door token [--rotate]`: the token (a new one with --rotate), or a note when there is none yet. */
export async function runDoorToken(options: DoorOptions & { rotate: boolean }, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(
    options.dataDir,
    options.rotate ? 'door token --rotate' : 'door token',
    output,
    (host) => (options.rotate ? host.door.rotateToken() : host.door.token()),
    !options.rotate,
  );
  let token: string | null;
  if (managed.ok) token = managed.value;
  else if (managed.held && !options.rotate) {
    // Showing the token changes nothing: read it from the shelf file while the village is open elsewhere.
    const read = await readDoorSettings(villagePaths(options.dataDir).shelf.mcpServer);
    if (!read.ok) {
      output.note({ level: 'error', code: read.error.code, message: read.error.message, ...(read.error.fix ? { fix: read.error.fix } : {}) });
      return EXIT.bootFailed;
    }
    token = read.settings.token;
  } else return managed.exit;
  if (token === null) {
    output.note({ level: 'error', code: 'DOOR_NO_TOKEN', message: 'The door has no token yet.', fix: 'Switch it on once (fuseforks-cli door enable); that makes the token.' });
    return EXIT.coreError;
  }
  output.stdout(options.json ? jsonText({ token }) : token);
  return EXIT.ok;
}
