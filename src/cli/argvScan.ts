/**
 * Looks at raw argv before oclif parses it: `--events jsonl` must make every stderr line JSON even when the
 * parse itself fails (SPEC §6.5). Pure.
 */

/**
 * True when argv asks for `--events jsonl` (`--events jsonl` or `--events=jsonl`). Words after `--` are the
 * request text of `ask`, never flags, so they are not counted.
 */
export function wantsEventsJsonl(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i];
    if (word === '--') return false;
    if (word === '--events=jsonl') return true;
    if (word === '--events' && argv[i + 1] === 'jsonl') return true;
  }
  return false;
}
