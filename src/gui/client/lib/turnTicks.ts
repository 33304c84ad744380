/**
 * The stats chart's x axis counts turns: its ticks are whole turn numbers within the shown range (a step of 1, 2,
 * 5, 10, 20, 50 … so that at most `most` ticks fit), never 1.5. Pure.
 */
export function turnTicks(min: number, max: number, most: number): number[] {
  const first = Math.ceil(min);
  const last = Math.floor(max);
  if (last < first) return [];
  const room = Math.max(1, Math.floor(most));
  let step = 1;
  for (let base = 1; ; base *= 10) {
    const fit = [1, 2, 5].map((m) => m * base).find((s) => Math.floor((last - first) / s) + 1 <= room);
    if (fit !== undefined) {
      step = fit;
      break;
    }
  }
  const ticks: number[] = [];
  for (let v = Math.ceil(first / step) * step; v <= last; v += step) ticks.push(v);
  if (ticks.length === 0) ticks.push(first);
  return ticks;
}
