/**
 * Pane sizes of the main screen (servant list width, chat width, work-status height), kept per device in
 * localStorage. Pure: reading a stored value clamps it (a hand-edited or stale entry never breaks the layout),
 * and a resize step clamps too.
 */

/** The three sizes, in CSS pixels. */
export interface PaneLayout {
  left: number;
  right: number;
  bottom: number;
}

export type PaneEdge = keyof PaneLayout;

/** localStorage key (device-local, never in the village). */
export const LAYOUT_KEY = 'fuseforks.layout.v1';

export const DEFAULT_LAYOUT: Readonly<PaneLayout> = { left: 320, right: 400, bottom: 170 };

/** Smallest and largest size of each pane. */
export const LAYOUT_LIMITS: Readonly<Record<PaneEdge, readonly [number, number]>> = {
  left: [220, 560],
  right: [300, 760],
  bottom: [80, 480],
};

/** Arrow-key step of a splitter. */
export const KEY_STEP = 16;

function clamp(edge: PaneEdge, value: number): number {
  const [lo, hi] = LAYOUT_LIMITS[edge];
  return Math.round(Math.min(hi, Math.max(lo, value)));
}

/** The layout a stored text stands for: defaults for anything missing or not a number, every size clamped. */
export function parseLayout(stored: string | null): PaneLayout {
  let value: unknown = null;
  try {
    value = stored === null ? null : JSON.parse(stored);
  } catch {
    value = null;
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const pick = (edge: PaneEdge): number => {
    const v = record[edge];
    return typeof v === 'number' && Number.isFinite(v) ? clamp(edge, v) : DEFAULT_LAYOUT[edge];
  };
  return { left: pick('left'), right: pick('right'), bottom: pick('bottom') };
}

/** The layout with one pane grown (positive) or shrunk (negative) by `by` pixels, within its limits. */
export function resizePane(layout: PaneLayout, edge: PaneEdge, by: number): PaneLayout {
  return { ...layout, [edge]: clamp(edge, layout[edge] + by) };
}

/** The layout with one pane back at its default size. */
export function resetPane(layout: PaneLayout, edge: PaneEdge): PaneLayout {
  return { ...layout, [edge]: DEFAULT_LAYOUT[edge] };
}
