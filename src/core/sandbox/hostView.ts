/**
 * The facts about the host a sandbox plan needs (sandboxPlan.ts `HostView`): for each system folder, each secret of
 * /etc and each hidden path, whether it is a folder, a file or a symlink (with its target). Read with lstat at the
 * edge, just before a command starts, so the plan itself stays a pure function.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { ETC_SECRETS, SYSTEM_PATHS, type HostEntry, type HostView } from './sandboxPlan.js';

function entryOf(path: string): HostEntry | null {
  try {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return { kind: 'symlink', target: readlinkSync(path) };
    if (info.isDirectory()) return { kind: 'dir' };
    return { kind: 'file' };
  } catch {
    return null; // absent (or unreadable: nothing to bind or cover)
  }
}

/** The view of the system paths, /etc/resolv.conf, the /etc secrets and `hidden`. */
export function gatherHostView(hidden: readonly string[]): HostView {
  const view: Record<string, HostEntry> = {};
  for (const path of [...SYSTEM_PATHS, '/etc/resolv.conf', ...ETC_SECRETS, ...hidden]) {
    const entry = entryOf(path);
    if (entry !== null) view[path] = entry;
  }
  return view;
}
