/**
 * `--start` → the agents a headless command starts (SPEC §6 start-set table). Pure: argument problems come back
 * as a value naming the flag, never as a throw, so `check` can report them like any other argument error.
 *
 * - `batch`: `batchStart && (no group, or group unknown, or group.batchStart)`, ordered by `order` (ties keep
 *   world.json order); `hidden` is display-only and ignored.
 * - `reception`: the reception alone; `ask` only.
 * - `a,b,c`: exactly these ids, in the order given, duplicates once; an unknown id is an argument error.
 * `ask` always adds the reception (appended when missing). An unset or deleted reception is not an argument
 * error here: preflight reports it (RECEPTION_UNSET / RECEPTION_MISSING) with its own fix.
 * The keywords win over an agent that happens to be called `batch` or `reception`; list it with another id
 * (`batch,x`) or a trailing comma (`batch,`) to mean the agent.
 * An agent whose id is not a safe identifier (identifiers.ts) is never in a start set: `batch` and the reception
 * leave it out (preflight names it, UNSAFE_IDENTIFIER), and listing it is an argument error.
 */
import { isSafeIdentifier, MAX_IDENTIFIER_LENGTH } from './identifiers.js';
import type { World } from './types.js';

/** Which headless command the start set is for. */
export type StartMode = 'ask' | 'serve';

/** An argument error about `--start`, in the CLI's usual shape. */
export interface StartSetError {
  flag: '--start';
  message: string;
  fix: string;
}

/** The resolved ids in start order, or the argument error. */
export type StartSetResult = { ok: true; ids: string[] } | { ok: false; error: StartSetError };

/** Resolves `--start` for `mode`; `spec` is the flag value as typed. */
export function resolveStartSet(world: World, spec: string, mode: StartMode): StartSetResult {
  const trimmed = spec.trim();
  let ids: string[];
  if (trimmed === 'batch') {
    ids = batchSet(world);
  } else if (trimmed === 'reception') {
    if (mode !== 'ask') {
      return fail(
        `--start reception is only for ask (this is ${mode})`,
        'Use --start batch, or list the agents to start: --start a,b,c.',
      );
    }
    ids = [];
  } else {
    const listed = parseIdList(world, trimmed);
    if (!listed.ok) return listed;
    ids = listed.ids;
  }
  if (mode === 'ask') ids = withReception(world, ids);
  return { ok: true, ids };
}

/** The batch start set: ids in start order. */
export function batchSet(world: World): string[] {
  const groups = new Map(world.groups.map((group) => [group.id, group]));
  return world.agents
    .map((agent, index) => ({ agent, index }))
    .filter(({ agent }) => {
      if (!agent.batchStart || !isSafeIdentifier(agent.id)) return false;
      const group = agent.groupId === null ? undefined : groups.get(agent.groupId);
      return group === undefined || group.batchStart;
    })
    .sort((a, b) => a.agent.order - b.agent.order || a.index - b.index)
    .map(({ agent }) => agent.id);
}

function parseIdList(world: World, spec: string): StartSetResult {
  if (spec === '') {
    return fail('--start is empty', 'Use --start batch, --start reception (ask only) or a comma list of agent ids.');
  }
  const known = new Set(world.agents.map((agent) => agent.id));
  const parts = spec.split(',').map((part) => part.trim());
  // One trailing comma is allowed (`batch,` = the agent called batch); an empty item elsewhere is a typo.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const ids: string[] = [];
  for (const id of parts) {
    if (id === '') return fail(`--start ${JSON.stringify(spec)} has an empty item`, 'Remove the extra comma: --start a,b,c.');
    if (!known.has(id)) {
      return fail(
        `--start names an unknown agent ${JSON.stringify(id)}`,
        `Use ids from world.json agents[].id${known.size > 0 ? ` (e.g. ${[...known].slice(0, 5).join(', ')})` : ''}, or --start batch.`,
      );
    }
    if (!isSafeIdentifier(id)) {
      return fail(
        `--start names the agent ${JSON.stringify(id)}, whose id is not 1-${MAX_IDENTIFIER_LENGTH} characters of A-Z a-z 0-9 _ - (UNSAFE_IDENTIFIER), so it is never started`,
        'Give that agent a safe id in world.json (and in the ties, reception and schedules naming it), or leave it out of --start.',
      );
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return { ok: true, ids };
}

function withReception(world: World, ids: string[]): string[] {
  const reception = world.reception;
  if (reception === null || ids.includes(reception) || !isSafeIdentifier(reception)) return ids;
  if (!world.agents.some((agent) => agent.id === reception)) return ids;
  return [...ids, reception];
}

function fail(message: string, fix: string): StartSetResult {
  return { ok: false, error: { flag: '--start', message, fix } };
}
