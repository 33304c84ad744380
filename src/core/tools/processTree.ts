/**
 * Finding every process a `run` call started, on Linux, from `/proc` alone (no cgroups, no native code). A child
 * may leave the process group, or the session (`setsid`), and its parent may exit so that it is re-parented to
 * init: a group kill then misses it, and while it holds the output pipes the call never returns. Three marks are
 * followed, each catching what the others miss:
 * - the session and group: the child is spawned as a session leader, so everything that did not call setsid or
 *   setpgid is found by its session id;
 * - the parent chain: polled while the run is alive, so a process that left the session is still found through
 *   a parent that was seen before;
 * - an environment mark (`FUSEFORKS_RUN_ID=<random>`) inherited by every descendant that did not clear its
 *   environment: found even after its parent is gone and it has left the session.
 * Only a process that clears its environment, leaves the session AND loses its parent between two polls escapes;
 * its pipes are closed on it when the call returns, so the call still ends on time.
 */
import fs from 'node:fs';

/** The environment variable whose value marks one run's processes. */
export const RUN_MARK_VARIABLE = 'FUSEFORKS_RUN_ID';

/** One process as `/proc/<pid>/stat` shows it. `start` (clock ticks since boot) tells a reused pid apart. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  start: number;
  zombie: boolean;
}

/** Parses one `/proc/<pid>/stat` line (the command name may hold spaces and parentheses). */
export function parseProcStat(line: string): ProcEntry | null {
  const close = line.lastIndexOf(')');
  const pid = Number.parseInt(line, 10);
  if (close < 0 || !Number.isInteger(pid)) return null;
  const f = line.slice(close + 2).split(' ');
  // After the name: state(0) ppid(1) pgrp(2) session(3) … starttime is field 22 of the whole line → index 19 here.
  const entry = { pid, ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]), start: Number(f[19]), zombie: f[0] === 'Z' };
  return Number.isFinite(entry.ppid) && Number.isFinite(entry.start) ? entry : null;
}

function readStat(pid: number): ProcEntry | null {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // gone, or not Linux
  }
}

/** Every process visible in /proc (empty where /proc does not exist). */
export function listProcesses(): ProcEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcEntry[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const entry = readStat(pid);
    if (entry !== null) out.push(entry);
  }
  return out;
}

function environHas(pid: number, mark: Buffer): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`).includes(mark);
  } catch {
    return false; // gone, or another user's process
  }
}

/** The processes of one run: its root and everything found through the three marks, with how to kill them. */
export class RunProcessTree {
  private readonly known = new Map<number, number>();
  private readonly mark: Buffer;

  constructor(
    private readonly root: number,
    token: string,
  ) {
    // 128 random bits: no other process holds this exact string by chance.
    this.mark = Buffer.from(`${RUN_MARK_VARIABLE}=${token}`);
  }

  /** Notes the run's processes by session, group and parent chain (cheap: one read of each /proc/<pid>/stat). */
  poll(processes: readonly ProcEntry[] = listProcesses()): void {
    const self = process.pid;
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of processes) {
        if (p.pid === self || this.known.has(p.pid) || p.zombie) continue;
        if (p.pid === this.root || p.sid === this.root || p.pgid === this.root || this.known.has(p.ppid)) {
          this.known.set(p.pid, p.start);
          grew = true;
        }
      }
    }
  }

  /** Everything of this run that is alive now: poll plus the environment mark (reads each process's environ). */
  sweep(): ProcEntry[] {
    const processes = listProcesses();
    this.poll(processes);
    const self = process.pid;
    const alive: ProcEntry[] = [];
    for (const p of processes) {
      if (p.pid === self || p.zombie) continue;
      const seen = this.known.get(p.pid);
      if (seen === p.start || (seen === undefined && environHas(p.pid, this.mark))) {
        this.known.set(p.pid, p.start);
        alive.push(p);
      }
    }
    return alive;
  }

  /**
   * SIGKILLs every process of the run, sweeping again after each round since a process may fork while it is being
   * killed; returns how many were killed. Bounded: a fork bomb outrunning five rounds is left to the pipe close.
   */
  killAll(): number {
    let killed = 0;
    for (let round = 0; round < 5; round += 1) {
      const alive = this.sweep();
      if (alive.length === 0) break;
      for (const p of alive) {
        try {
          process.kill(p.pid, 'SIGKILL');
          killed += 1;
        } catch {
          // already gone
        }
      }
    }
    return killed;
  }
}
