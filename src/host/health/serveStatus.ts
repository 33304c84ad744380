/**
 * `{dataDir}/serve.status.json`: the heartbeat `serve` keeps fresh, and the pure verdict `fuseforks-cli status`
 * draws from it — for a container HEALTHCHECK and Kubernetes exec probes. Reading it takes no lock (the village
 * is held by the very serve being probed); the verdict needs only the file, the clock and whether the pid lives.
 * It sits on the shelf (beside workspace/): it describes this machine's process, never the village, so it is
 * never baked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** File name of the heartbeat, on the shelf. */
export const SERVE_STATUS_FILE = 'serve.status.json';
/** How often serve rewrites it (ms). Cheap: one small atomic write. */
export const HEARTBEAT_MS = 10_000;
/** Default `status --max-age` (s): three missed heartbeats. */
export const DEFAULT_MAX_AGE_SECS = 30;

/** Where a serve is in its life. */
export type ServeState = 'starting' | 'serving' | 'closing';

/** The file's shape (data_contract `serve_status`). Times are ISO 8601. */
export interface ServeStatusDoc {
  format: 1;
  pid: number;
  state: ServeState;
  since: string;
  updatedAt: string;
  /** Agents whose worker is running now. */
  agentsRunning: string[];
  /** null = this village's door is off on this shelf. */
  door: { listening: boolean; port: number } | null;
  /** When the schedule ticker last ran a tick (null: none yet). */
  lastScheduleTick: string | null;
  /** The last failure serve saw: code and where, never a message body. */
  lastError: { code: string; agentId: string | null; at: string } | null;
}

/** The file as read: absent, unreadable (with why), or a document. */
export type StatusRead = { kind: 'missing' } | { kind: 'unreadable'; reason: string } | { kind: 'ok'; doc: ServeStatusDoc };

/** Absolute path of the heartbeat for a data dir. */
export function serveStatusPath(dataDir: string): string {
  return join(dataDir, SERVE_STATUS_FILE);
}

/** Reads the heartbeat without any lock. */
export async function readServeStatus(dataDir: string): Promise<StatusRead> {
  let text: string;
  try {
    text = await readFile(serveStatusPath(dataDir), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable', reason: `cannot read it (${code ?? 'error'})` };
  }
  try {
    const doc = JSON.parse(text) as Partial<ServeStatusDoc>;
    if (doc.format !== 1 || typeof doc.pid !== 'number' || typeof doc.updatedAt !== 'string' || Number.isNaN(Date.parse(doc.updatedAt))) {
      return { kind: 'unreadable', reason: 'it is not a format-1 status (pid, updatedAt)' };
    }
    return { kind: 'ok', doc: doc as ServeStatusDoc };
  } catch {
    return { kind: 'unreadable', reason: 'it is not valid JSON' };
  }
}

/** What the verdict needs besides the file. */
export interface VerdictInput {
  nowMs: number;
  maxAgeSecs: number;
  /** Readiness: also require that serve has finished starting. */
  ready: boolean;
  pidAlive(pid: number): boolean;
}

/** Healthy or not, and one line saying why. */
export interface Verdict {
  healthy: boolean;
  reason: string;
}

/** How old the heartbeat is at `nowMs`, in whole seconds (never negative: clocks may disagree a little). Pure. */
export function statusAgeSecs(doc: ServeStatusDoc, nowMs: number): number {
  return Math.max(0, Math.round((nowMs - Date.parse(doc.updatedAt)) / 1000));
}

/** Pure: the verdict on a heartbeat. A dead pid, a stale file or (with `ready`) not serving → unhealthy. */
export function judgeServeStatus(read: StatusRead, input: VerdictInput): Verdict {
  if (read.kind === 'missing') return { healthy: false, reason: `no ${SERVE_STATUS_FILE}: serve has not run in this data dir` };
  if (read.kind === 'unreadable') return { healthy: false, reason: `${SERVE_STATUS_FILE} is unusable: ${read.reason}` };
  const doc = read.doc;
  const ageSecs = statusAgeSecs(doc, input.nowMs);
  if (!input.pidAlive(doc.pid)) return { healthy: false, reason: `serve (pid ${doc.pid}) is not running; the status was written ${ageSecs} s ago` };
  if (ageSecs > input.maxAgeSecs) return { healthy: false, reason: `the status is ${ageSecs} s old (max ${input.maxAgeSecs} s): serve (pid ${doc.pid}) stopped updating it` };
  if (input.ready && doc.state !== 'serving') return { healthy: false, reason: `serve (pid ${doc.pid}) is ${doc.state}, not serving yet` };
  const door = doc.door === null ? 'door off' : doc.door.listening ? `door listening on 127.0.0.1:${doc.door.port}` : `door NOT listening (port ${doc.door.port})`;
  return { healthy: true, reason: `${doc.state}, pid ${doc.pid}, ${doc.agentsRunning.length} agent(s) running, ${door}, updated ${ageSecs} s ago` };
}

/**
 * Is `pid` a live `serve`? `kill(pid, 0)` alone is not enough in a container: a fresh container's own process (and
 * its threads, whose ids `kill` also accepts) can hold the very number a dead serve wrote. Where /proc exists the
 * pid must be a process (not a thread) whose command line has `serve`; elsewhere `kill(pid, 0)` decides
 * (ESRCH = gone, EPERM = alive but another user's). Our own pid is never the serve being asked about.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  if (existsSync('/proc/self/status')) return procIsServe(pid);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function procIsServe(pid: number): boolean {
  try {
    const tgid = /^Tgid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (tgid !== String(pid)) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('serve');
  } catch {
    return false;
  }
}
