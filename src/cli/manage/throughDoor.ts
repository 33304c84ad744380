/**
 * Management commands beside a running serve: the holder's door (shelf mcp_server.json: port and bearer token, the
 * same as `ask` uses) carries `agents list` and `schedules run-now` on its management routes (host/door/doorManage.ts).
 * A door that is off, has no token, is not listening or predates these routes is `off`: the caller then refuses
 * as before, saying how to switch the door on.
 */
import { request } from 'node:http';
import { villagePaths } from '../../core/village/paths.js';
import type { ManageAnswer, ManageError } from '../../host/door/doorManage.js';
import { readDoorSettings } from '../../host/door/doorSettings.js';

/** Where the holder's door listens and its token, or null when the shelf file says it is off (or has no token). */
export async function doorAddress(dataDir: string): Promise<{ port: number; token: string } | null> {
  const read = await readDoorSettings(villagePaths(dataDir).shelf.mcpServer);
  if (!read.ok || !read.settings.enabled || read.settings.token === null) return null;
  return { port: read.settings.port, token: read.settings.token };
}

/** How a call through the door went. */
export type DoorCall<T> = { kind: 'off' } | { kind: 'ok'; value: T; port: number } | { kind: 'refused'; error: ManageError; port: number };

/** GET (no body) or POST (JSON `body`) to a management route of the holder's door. */
export async function callDoor<T>(dataDir: string, path: string, body?: unknown): Promise<DoorCall<T>> {
  const address = await doorAddress(dataDir);
  if (address === null) return { kind: 'off' };
  const { port, token } = address;
  const text = body === undefined ? null : JSON.stringify(body);
  const answer = await new Promise<{ status: number; text: string } | null>((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: text === null ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${token}`, ...(text === null ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve(null));
      },
    );
    // Not listening (a GUI without the door, a stale file): the same as a door that is off.
    req.on('error', () => resolve(null));
    req.end(text ?? undefined);
  });
  if (answer === null || answer.status === 404) return { kind: 'off' };
  const parsed = parseAnswer<T>(answer.text);
  if (parsed === null) {
    const error = { code: 'MCP_FAILED', message: `The door at 127.0.0.1:${port} answered HTTP ${answer.status}.`, fix: answer.status === 401 ? 'The token in mcp_server.json changed since that process opened its door: restart it.' : 'See the serving process\'s log (workspace/fuseforks.log).' };
    return { kind: 'refused', error, port };
  }
  return parsed.ok ? { kind: 'ok', value: parsed.value, port } : { kind: 'refused', error: parsed.error, port };
}

function parseAnswer<T>(text: string): ManageAnswer<T> | null {
  try {
    const parsed = JSON.parse(text) as ManageAnswer<T>;
    return typeof parsed === 'object' && parsed !== null && typeof parsed.ok === 'boolean' ? parsed : null;
  } catch {
    return null;
  }
}
