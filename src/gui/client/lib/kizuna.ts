/**
 * Kizuna (the village map) as pure functions: drag-to-tie rules and edges merged into one line per pair (placement
 * and routing: kizunaLayout.ts; the viewport: kizunaView.ts) (reference gui.md §2.13, §3.2). No DOM here, so it is unit-tested in node.
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

/** Ties counted as the header shows them: lines, and how many of them go both ways. */
export function tieCounts(agents: readonly MapAgent[]): { ties: number; both: number } {
  const edges = mapEdges(agents);
  return { ties: edges.length, both: edges.filter((e) => e.both).length };
}
