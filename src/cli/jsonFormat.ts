/**
 * The version stamp of every `--json` object of fuseforks-cli (docs/schemas/). No imports: output.ts and every
 * runner print through it.
 */

/** The version of every `--json` shape; raised when a shape changes in a way a script would notice. */
export const JSON_FORMAT = 1;

/** One `--json` object as its stdout line: `format` first, then the command's own fields. */
export function jsonText(value: object): string {
  return JSON.stringify({ format: JSON_FORMAT, ...value });
}
