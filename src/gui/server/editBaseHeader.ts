/**
 * The base of a GUI change (core/village/revision.ts) travels in `If-Match`: the revisions the tab's form was made
 * from, as entity tags (`"r1", "r2"`). Absent = no base (the change is not checked, as for a program that means to
 * overwrite) and so is `*` (any version, as in HTTP); any other value, even empty, = checked.
 */
import type { EditBase } from '../../core/village/revision.js';

/** The revisions an `If-Match` header lists (quotes and a weak `W/` dropped); undefined without the header. */
export function editBaseOf(header: string | undefined): EditBase | undefined {
  if (header === undefined) return undefined;
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1'));
  if (tags.includes('*')) return undefined;
  return tags.filter((tag) => tag !== '');
}

