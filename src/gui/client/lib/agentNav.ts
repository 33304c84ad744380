/**
 * Alt+↑ / Alt+↓ moves the selected servant through the list (in list order) from anywhere on the main screen,
 * the chat input included, so a person can switch who they talk to without the mouse. Pure.
 */

/** The servant selected after one step (`-1` up, `1` down); stays at the ends; the first one when none was. */
export function stepSelection(ids: readonly string[], current: string | null, step: -1 | 1): string | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at < 0) return ids[0]!;
  return ids[Math.min(ids.length - 1, Math.max(0, at + step))]!;
}

/** The step an Alt+arrow key press asks for, or null for any other key. */
export function navStep(e: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }): -1 | 1 | null {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return null;
  if (e.key === 'ArrowUp') return -1;
  if (e.key === 'ArrowDown') return 1;
  return null;
}
