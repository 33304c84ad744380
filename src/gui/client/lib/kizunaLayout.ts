/**
 * Kizuna geometry as pure functions: where a node's name label sits, where an unplaced node goes (free space:
 * away from other nodes, their labels and the ties already drawn), and how a tie is routed so it never runs
 * through a node's circle or name label. Canvas pixels throughout; no DOM, so node tests pin the rules.
 */
import type { MapAgent, Point } from './kizuna.js';

/** The canvas unplaced nodes are seeded around (its centre), in canvas pixels. */
export const CANVAS = { w: 800, h: 520 } as const;

/** Node circle radius (the selected node is drawn 1.3× larger). */
export const NODE_RADIUS = 24;
/** Gap kept between a tie and a circle or label it passes. */
const CLEARANCE = 6;
/** Distance between candidate slots when placing a node. */
const SLOT_STEP = 110;

/** An axis-aligned box. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Rough width of a name in the map's 12 px font: wide (CJK) characters count double. */
export function labelWidth(name: string): number {
  let units = 0;
  for (const ch of name) units += (ch.codePointAt(0) ?? 0) > 0x2e80 ? 2 : 1;
  return Math.max(12, units * 6.6 + 8);
}

/** The name label's box below a node drawn with radius `r`. */
export function labelBox(at: Point, name: string, r: number = NODE_RADIUS): Box {
  const w = labelWidth(name);
  return { x: at.x - w / 2, y: at.y + r + 3, w, h: 18 };
}

/** Everything one node occupies: its circle (as a box) and its label. */
export function nodeBoxes(at: Point, name: string, r: number = NODE_RADIUS): Box[] {
  return [{ x: at.x - r, y: at.y - r, w: 2 * r, h: 2 * r }, labelBox(at, name, r)];
}

function grow(b: Box, by: number): Box {
  return { x: b.x - by, y: b.y - by, w: b.w + 2 * by, h: b.h + 2 * by };
}

function inBox(p: Point, b: Box): boolean {
  return p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;
}

/** Distance from a point to the segment a–b. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** True when the segment a–b touches the box (Liang–Barsky clipping). */
export function segmentHitsBox(a: Point, b: Point, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const edges: Array<[number, number]> = [
    [-dx, a.x - box.x],
    [dx, box.x + box.w - a.x],
    [-dy, a.y - box.y],
    [dy, box.y + box.h - a.y],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

/** True when a polyline passes through a box. */
export function polylineHits(points: readonly Point[], box: Box): boolean {
  for (let i = 1; i < points.length; i += 1) if (segmentHitsBox(points[i - 1]!, points[i]!, box)) return true;
  return false;
}

/** Candidate slots: the centre, then rings of growing radius, each starting at the top (deterministic). */
function* slots(centre: Point): Generator<Point> {
  yield { x: Math.round(centre.x), y: Math.round(centre.y) };
  for (let ring = 1; ring < 40; ring += 1) {
    const radius = ring * SLOT_STEP;
    const count = Math.max(6, Math.floor((2 * Math.PI * radius) / SLOT_STEP));
    for (let i = 0; i < count; i += 1) {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / count;
      yield { x: Math.round(centre.x + radius * Math.cos(angle)), y: Math.round(centre.y + radius * Math.sin(angle)) };
    }
  }
}

/** What is already on the canvas when a node is placed. */
export interface Occupied {
  nodes: Array<{ at: Point; name: string }>;
  /** Ties already drawn, as centre-to-centre segments. */
  ties: Array<[Point, Point]>;
}

/** True when a node with `name` at `p` would overlap nothing: no node, no label, no tie. */
export function isFree(p: Point, name: string, occupied: Occupied): boolean {
  const mine = nodeBoxes(p, name).map((b) => grow(b, 2 * CLEARANCE));
  for (const other of occupied.nodes) {
    if (Math.hypot(other.at.x - p.x, other.at.y - p.y) < 3 * NODE_RADIUS) return false;
    for (const box of nodeBoxes(other.at, other.name)) {
      if (mine.some((m) => overlaps(m, box))) return false;
    }
  }
  return occupied.ties.every(([a, b]) => segmentDistance(p, a, b) > NODE_RADIUS + 3 * CLEARANCE && !mine.some((m) => polylineHits([a, b], m)));
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The first free slot around `centre` for a new node. */
export function freeSpot(name: string, occupied: Occupied, centre: Point): Point {
  let last = centre;
  for (const p of slots(centre)) {
    if (isFree(p, name, occupied)) return p;
    last = p;
  }
  return last;
}

/**
 * Positions for every agent: stored ones as they are; each unplaced one (in list order) on the first free slot
 * around the canvas centre, given the nodes and ties placed before it. Same village → same picture, and a
 * placed node never moves.
 */
export function seedPositions(
  agents: ReadonlyArray<MapAgent & { name?: string }>,
  stored: Readonly<Record<string, Point>>,
  width: number,
  height: number,
): Record<string, Point> {
  const out: Record<string, Point> = {};
  const nameOf = (id: string): string => agents.find((a) => a.id === id)?.name ?? id;
  for (const a of agents) {
    const p = stored[a.id];
    if (p !== undefined) out[a.id] = { x: p.x, y: p.y };
  }
  for (const a of agents) {
    if (out[a.id] !== undefined) continue;
    out[a.id] = freeSpot(nameOf(a.id), occupiedBy(agents, out), { x: width / 2, y: height / 2 });
  }
  return out;
}

/** The nodes and ties among the already positioned agents. */
export function occupiedBy(agents: ReadonlyArray<MapAgent & { name?: string }>, at: Readonly<Record<string, Point>>): Occupied {
  const nodes = agents.filter((a) => at[a.id] !== undefined).map((a) => ({ at: at[a.id]!, name: a.name ?? a.id }));
  const ties: Array<[Point, Point]> = [];
  for (const a of agents) {
    for (const target of a.connectedAgents) {
      const from = at[a.id];
      const to = at[target];
      if (from !== undefined && to !== undefined) ties.push([from, to]);
    }
  }
  return { nodes, ties };
}

/** One drawable node for routing. */
export interface RouteNode {
  id: string;
  at: Point;
  name: string;
  r: number;
}

/** Points of a quadratic curve from a to b bent by `bend` pixels to the left of a→b. */
function curve(a: Point, b: Point, bend: number, samples: number): Point[] {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const cx = mx + (-(b.y - a.y) / len) * bend * 2;
  const cy = my + ((b.x - a.x) / len) * bend * 2;
  const out: Point[] = [];
  for (let i = 0; i <= samples; i += 1) {
    const t = i / samples;
    const u = 1 - t;
    out.push({ x: u * u * a.x + 2 * u * t * cx + t * t * b.x, y: u * u * a.y + 2 * u * t * cy + t * t * b.y });
  }
  return out;
}

const BENDS = [0, 28, -28, 56, -56, 90, -90, 130, -130];

/**
 * The tie from `from` to `to` as a polyline: straight when that passes no other node's circle or label, else the
 * least bent curve that does; both ends cut where the line leaves its own node's circle and label, so the
 * arrow heads touch the rim and never cover a name.
 */
export function routeTie(from: RouteNode, to: RouteNode, others: readonly RouteNode[]): Point[] {
  const blocked = others.flatMap((n) => nodeBoxes(n.at, n.name, n.r).map((b) => grow(b, CLEARANCE)));
  const own = (n: RouteNode): Box[] => nodeBoxes(n.at, n.name, n.r).map((b) => grow(b, 3));
  let chosen: Point[] | null = null;
  for (const bend of BENDS) {
    const pts = bend === 0 ? straight(from.at, to.at) : curve(from.at, to.at, bend, 48);
    if (!blocked.some((b) => polylineHits(pts, b))) {
      chosen = pts;
      break;
    }
  }
  const path = chosen ?? straight(from.at, to.at);
  return trimEnds(path, own(from), from, own(to), to);
}

function straight(a: Point, b: Point): Point[] {
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const n = Math.max(1, Math.ceil(len / 4));
  return Array.from({ length: n + 1 }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n }));
}

function inside(p: Point, boxes: readonly Box[], node: RouteNode): boolean {
  return Math.hypot(p.x - node.at.x, p.y - node.at.y) <= node.r + 4 || boxes.some((b) => b.y > node.at.y && inBox(p, b));
}

/** Drops the points inside each end's circle or label; keeps at least a two-point line. */
function trimEnds(points: Point[], fromBoxes: Box[], from: RouteNode, toBoxes: Box[], to: RouteNode): Point[] {
  let start = 0;
  while (start < points.length - 1 && inside(points[start]!, fromBoxes, from)) start += 1;
  let end = points.length - 1;
  while (end > start && inside(points[end]!, toBoxes, to)) end -= 1;
  const kept = points.slice(start, end + 1);
  if (kept.length >= 2) return simplify(kept);
  const mid = points[Math.floor(points.length / 2)]!;
  return [mid, { x: mid.x + 0.01, y: mid.y }];
}

/** Straight runs collapse to their ends (the SVG stays small); curves keep their samples. */
function simplify(points: Point[]): Point[] {
  if (points.length <= 2) return points;
  const a = points[0]!;
  const b = points[points.length - 1]!;
  const straightRun = points.every((p) => segmentDistance(p, a, b) < 0.5);
  return straightRun ? [a, b] : points;
}

/** An SVG path for a polyline. */
export function pathOf(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
}
