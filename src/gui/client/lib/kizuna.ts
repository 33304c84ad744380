/**
 * Kizuna (the village map) as pure functions: drag-to-tie rules, deterministic seeding of unplaced nodes, and
 * edges merged into one line per pair (reference gui.md §2.13, §3.2). No DOM here, so it is unit-tested in node.
 */

/** The part of an agent the map needs. */
export interface MapAgent {
  id: string;
  connectedAgents: string[];
}

/** A node position in canvas pixels. */
export interface Point {
  x: number;
  y: number;
}

/** One drawn line: `a → b`, or both ways when `both`. */
export interface MapEdge {
  a: string;
  b: string;
  both: boolean;
}

/**
 * The source's new tie list after dropping it on `target`, or null when nothing should change: itself, an
 * unknown id, or that directed tie already exists (the reverse is allowed and makes the pair bidirectional).
 */
export function tieAddition(agents: readonly MapAgent[], source: string, target: string): string[] | null {
  if (source === target) return null;
  const from = agents.find((a) => a.id === source);
  if (from === undefined || !agents.some((a) => a.id === target)) return null;
  if (from.connectedAgents.includes(target)) return null;
  return [...from.connectedAgents, target];
}

/** Lines to draw: a pair of opposite ties is one line with arrows at both ends; order follows the agent list. */
export function mapEdges(agents: readonly MapAgent[]): MapEdge[] {
  const ids = new Set(agents.map((a) => a.id));
  const has = (a: string, b: string): boolean => agents.find((x) => x.id === a)?.connectedAgents.includes(b) === true;
  const seen = new Set<string>();
  const edges: MapEdge[] = [];
  for (const agent of agents) {
    for (const target of agent.connectedAgents) {
      if (!ids.has(target) || target === agent.id) continue;
      const key = [agent.id, target].sort().join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ a: agent.id, b: target, both: has(target, agent.id) });
    }
  }
  return edges;
}

/**
 * Positions for every agent: stored ones as they are; unplaced ones on a circle around the centre, at a slot
 * derived from their index, so the same village always seeds the same picture and placed nodes never move.
 */
export function seedPositions(ids: readonly string[], stored: Readonly<Record<string, Point>>, width: number, height: number): Record<string, Point> {
  const out: Record<string, Point> = {};
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.max(60, Math.min(width, height) / 2 - 60);
  ids.forEach((id, i) => {
    const p = stored[id];
    if (p !== undefined) {
      out[id] = { x: p.x, y: p.y };
      return;
    }
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(ids.length, 1);
    out[id] = { x: Math.round(cx + r * Math.cos(angle)), y: Math.round(cy + r * Math.sin(angle)) };
  });
  return out;
}

/** End points of a line between two node centres, pulled in by the node radius so arrows touch the circle rim. */
export function trimLine(from: Point, to: Point, radius: number): { x1: number; y1: number; x2: number; y2: number } {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  return { x1: from.x + ux * radius, y1: from.y + uy * radius, x2: to.x - ux * radius, y2: to.y - uy * radius };
}

/** Ties counted as the header shows them: lines, and how many of them go both ways. */
export function tieCounts(agents: readonly MapAgent[]): { ties: number; both: number } {
  const edges = mapEdges(agents);
  return { ties: edges.length, both: edges.filter((e) => e.both).length };
}
