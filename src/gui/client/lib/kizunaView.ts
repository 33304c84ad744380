/**
 * The Kizuna viewport (the SVG viewBox) as pure functions: Fit to the nodes (zooming in as well as out), wheel
 * zoom around the pointer, drag-to-pan. Canvas pixels; the box keeps the element's aspect ratio, so a canvas
 * point maps to the same screen point whatever the zoom.
 */
import type { Point } from './kizuna.js';
import type { Box } from './kizunaLayout.js';

/** Narrowest and widest view (canvas pixels across). */
export const MIN_VIEW_WIDTH = 160;
export const MAX_VIEW_WIDTH = 12_000;

/** Narrowest view Fit picks (canvas pixels): one or two servants are shown at a readable size, not a giant one. */
export const FIT_MIN_WIDTH = 520;

/** `box` grown around its centre to the element's aspect ratio (width / height). */
export function withAspect(box: Box, aspect: number): Box {
  const a = aspect > 0 && Number.isFinite(aspect) ? aspect : 1;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const w = Math.max(box.w, box.h * a);
  const h = w / a;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

/**
 * The view that shows exactly `occupied` (node circles and labels) plus a margin: smaller than the current view
 * when the nodes are close together (zoom in), larger when they spread out (zoom out). Empty → the default box.
 */
export function fitBox(occupied: readonly Box[], aspect: number, fallback: Box, margin = 36, minWidth = FIT_MIN_WIDTH): Box {
  if (occupied.length === 0) return withAspect(fallback, aspect);
  const minX = Math.min(...occupied.map((b) => b.x)) - margin;
  const minY = Math.min(...occupied.map((b) => b.y)) - margin;
  const maxX = Math.max(...occupied.map((b) => b.x + b.w)) + margin;
  const maxY = Math.max(...occupied.map((b) => b.y + b.h)) + margin;
  const fitted = withAspect({ x: minX, y: minY, w: maxX - minX, h: maxY - minY }, aspect);
  if (fitted.w >= minWidth) return fitted;
  // One node (or a tight pair) would fill the pane: keep a sensible minimum size around it.
  const cx = fitted.x + fitted.w / 2;
  const cy = fitted.y + fitted.h / 2;
  return withAspect({ x: cx - minWidth / 2, y: cy - fitted.h / 2, w: minWidth, h: fitted.h }, aspect);
}

/** Zooms by `factor` (>1 = out) keeping the canvas point `focus` under the pointer; clamped to the limits. */
export function zoomAt(box: Box, factor: number, focus: Point): Box {
  const w = Math.min(MAX_VIEW_WIDTH, Math.max(MIN_VIEW_WIDTH, box.w * factor));
  const k = w / box.w;
  return { x: focus.x - (focus.x - box.x) * k, y: focus.y - (focus.y - box.y) * k, w, h: box.h * k };
}

/** Wheel delta (pixels) → zoom factor; one notch (±100) is about ±16 %. */
export function wheelFactor(deltaY: number): number {
  return Math.exp(Math.max(-500, Math.min(500, deltaY)) * 0.0015);
}

/** The view moved so the canvas point grabbed at `from` sits under the pointer at `to` (both in start-view canvas units). */
export function panBy(start: Box, from: Point, to: Point): Box {
  return { ...start, x: start.x - (to.x - from.x), y: start.y - (to.y - from.y) };
}
