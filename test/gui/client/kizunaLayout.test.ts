import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/gui/client/lib/kizuna.js';
import {
  freeSpot,
  isFree,
  labelBox,
  nodeBoxes,
  NODE_RADIUS,
  occupiedBy,
  polylineHits,
  routeTie,
  segmentDistance,
  seedPositions,
  type RouteNode,
} from '../../../src/gui/client/lib/kizunaLayout.js';

const node = (id: string, x: number, y: number, name = id): RouteNode => ({ id, at: { x, y }, name, r: NODE_RADIUS });

describe('seedPositions (unplaced nodes go on free space)', () => {
  it('keeps stored positions and seeds the rest the same way every time', () => {
    const agents = [{ id: 'a', connectedAgents: [] }, { id: 'b', connectedAgents: [] }, { id: 'c', connectedAgents: [] }];
    const first = seedPositions(agents, { b: { x: 5, y: 6 } }, 800, 520);
    expect(first.b).toEqual({ x: 5, y: 6 });
    expect(seedPositions(agents, { b: { x: 5, y: 6 } }, 800, 520)).toEqual(first);
    expect(first.a).not.toEqual(first.c);
  });

  it('never lands a new node on a node, a label or a tie already drawn', () => {
    // Two tied nodes straight across the centre: the centre slot is on their tie.
    const agents = [
      { id: 'left', name: 'Left', connectedAgents: ['right'] },
      { id: 'right', name: 'Right', connectedAgents: [] },
      { id: 'new', name: 'New one', connectedAgents: [] },
    ];
    const stored = { left: { x: 250, y: 260 }, right: { x: 550, y: 260 } };
    const at = seedPositions(agents, stored, 800, 520).new!;
    expect(segmentDistance(at, stored.left, stored.right)).toBeGreaterThan(NODE_RADIUS + 10);
    for (const p of Object.values(stored)) expect(Math.hypot(at.x - p.x, at.y - p.y)).toBeGreaterThan(2 * NODE_RADIUS);
    for (const box of nodeBoxes(at, 'New one')) expect(polylineHits([stored.left, stored.right], box)).toBe(false);
  });

  it('fills a crowded centre outwards without overlaps', () => {
    const agents = Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}`, connectedAgents: i > 0 ? [`a${i - 1}`] : [] }));
    const at = seedPositions(agents, {}, 800, 520);
    const ids = Object.keys(at);
    for (const x of ids) for (const y of ids) if (x < y) expect(Math.hypot(at[x]!.x - at[y]!.x, at[x]!.y - at[y]!.y)).toBeGreaterThan(2 * NODE_RADIUS);
  });

  it('isFree refuses a spot on a tie and freeSpot finds another', () => {
    const occupied = occupiedBy([{ id: 'a', connectedAgents: ['b'] }, { id: 'b', connectedAgents: [] }], { a: { x: 0, y: 0 }, b: { x: 400, y: 0 } });
    expect(isFree({ x: 200, y: 0 }, 'x', occupied)).toBe(false);
    const spot = freeSpot('x', occupied, { x: 200, y: 0 });
    expect(isFree(spot, 'x', occupied)).toBe(true);
  });
});

describe('routeTie (ties never run through a name label)', () => {
  it('is straight when nothing is in the way, and stops at both rims', () => {
    const pts = routeTie(node('a', 0, 0), node('b', 300, 0), []);
    expect(pts).toHaveLength(2);
    expect(pts[0]!.x).toBeGreaterThanOrEqual(NODE_RADIUS);
    expect(pts[1]!.x).toBeLessThanOrEqual(300 - NODE_RADIUS);
  });

  it('leaves a node downwards without crossing its own label', () => {
    const a = node('a', 0, 0, 'A long servant name');
    const pts = routeTie(a, node('b', 0, 300), []);
    expect(polylineHits(pts, labelBox(a.at, a.name))).toBe(false);
  });

  it('bends around another node whose label sits on the straight line', () => {
    // c sits just above the line a–b, so its name label hangs across it.
    const c = node('c', 200, -30, 'Carol the middle');
    const straightHits = polylineHits([{ x: 0, y: 0 }, { x: 400, y: 0 }], labelBox(c.at, c.name));
    expect(straightHits).toBe(true);
    const pts = routeTie(node('a', 0, 0), node('b', 400, 0), [c]);
    for (const box of nodeBoxes(c.at, c.name)) expect(polylineHits(pts, box)).toBe(false);
    expect(pts.length).toBeGreaterThan(2);
  });

  it('is deterministic', () => {
    const others = [node('c', 200, -30, 'Carol the middle')];
    const first: Point[] = routeTie(node('a', 0, 0), node('b', 400, 0), others);
    expect(routeTie(node('a', 0, 0), node('b', 400, 0), others)).toEqual(first);
  });
});
