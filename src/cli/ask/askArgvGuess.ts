/**
 * What `bin/run.js` reads from raw argv, before the CLI (oclif) has even loaded, to spawn a cold `ask`'s agent
 * workers on the core that would otherwise idle while the CLI loads. Only a guess: anything it cannot be sure of
 * (help, a repeated flag, a flag without its value) gives up, the command's own parse decides everything, and a
 * wrong guess costs time only (earlyPrewarm.ts). Pure.
 */

/** The two flags the worker count depends on. */
export interface AskWorkerGuess {
  dataDir: string;
  start: string;
}

const VALUE_FLAGS: Readonly<Record<string, keyof AskWorkerGuess>> = { '--data-dir': 'dataDir', '-d': 'dataDir', '--start': 'start' };

/**
 * `argv` without node and the script (`['ask', …]`); `envDataDir` is FUSEFORKS_DATA_DIR, which oclif also reads.
 * Null unless argv is an `ask` with a data dir and a start set, each given once.
 */
export function guessAskWorkers(argv: readonly string[], envDataDir: string | undefined): AskWorkerGuess | null {
  if (argv[0] !== 'ask') return null;
  const found: Partial<Record<keyof AskWorkerGuess, string>> = {};
  for (let i = 1; i < argv.length; i += 1) {
    const word = argv[i] ?? '';
    if (word === '--') break; // the request text follows, never flags
    if (word === '--help' || word === '-h') return null;
    const eq = word.indexOf('=');
    const name = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word;
    const key = VALUE_FLAGS[name];
    if (key === undefined) continue;
    const value = name === word ? argv[(i += 1)] : word.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('-') || found[key] !== undefined) return null;
    found[key] = value;
  }
  const dataDir = found.dataDir ?? (envDataDir === '' ? undefined : envDataDir);
  if (dataDir === undefined || found.start === undefined) return null;
  return { dataDir, start: found.start };
}
