/**
 * The CLI a shipped-build test drives: the repository's built entry (`bin/run.js` over dist/) or the copy a packed
 * tarball installed into a temporary prefix. The tours in this folder take one, so the same script runs against both.
 */
import { REPO_BIN, runCli, type CliRun } from '../../cli/support/cliProcess.js';

export interface ShippedCli {
  /** Which copy this is, for assertion messages. */
  label: string;
  run(args: string[], env?: Record<string, string>, stdin?: string): Promise<CliRun>;
}

/** The CLI at `bin` (default: the repository's bin/run.js), run with the test's Node. */
export function shippedCli(bin: string = REPO_BIN, label = 'bin/run.js'): ShippedCli {
  return { label, run: (args, env = {}, stdin) => runCli(args, env, stdin, bin) };
}
