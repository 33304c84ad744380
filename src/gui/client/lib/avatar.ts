/**
 * A servant's avatar without any image: its initials on a colour derived from its id. The id never changes, so
 * renaming a servant keeps its colour (the initials follow the name); nothing is fetched.
 */

/** Up to two initials: the first letters of the first two words ("Team Lead" → "TL"), else the first letter. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/[\s_\-.]+/u).filter((w) => w !== '');
  const first = (w: string | undefined): string => (w === undefined ? '' : (Array.from(w)[0] ?? '').toUpperCase());
  const initials = first(words[0]) + first(words[1]);
  return initials === '' ? '?' : initials;
}

/** A hue in [0, 360) from the id (32-bit FNV-1a over its UTF-16 units): the same id gives the same hue everywhere. */
export function avatarHue(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 360;
}

/** The avatar's background: mid lightness, so white initials stay readable on every hue. */
export function avatarColor(id: string): string {
  return `hsl(${avatarHue(id)} 55% 42%)`;
}
