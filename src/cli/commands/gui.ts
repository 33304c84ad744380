/**
 * `fuseforks-cli gui --data-dir D [--port N] [--no-open]` — the desktop GUI in the browser. Thin: the GUI server
 * (and everything it pulls in) is imported only when this command runs, so `ask` and `check` never load it.
 * Prints exactly one line on stdout: a single-use URL that opens one browser session of this launch.
 */
import { Command, Flags } from '@oclif/core';
import { dataDirFlag } from '../flags.js';
import { CliOutput } from '../output.js';
import { readBuildVersion } from '../version.js';

/** The `gui` command. */
export default class Gui extends Command {
  static override summary = 'Open the village in the browser GUI (served on 127.0.0.1; only this launch\'s browser sessions get in).';
  static override description =
    'Creates the village when world.json is missing. Takes the village lock like serve: while another process ' +
    'holds it, the page shows the lock message. The browser is opened on a private page in the runtime folder ' +
    '($XDG_RUNTIME_DIR/fuseforks); the printed URL works once, for a browser of your choice. Stops on Ctrl+C.';
  static override examples = ['<%= config.bin %> gui --data-dir ./data', '<%= config.bin %> gui --data-dir ./data --port 4173 --no-open'];
  static override flags = {
    'data-dir': dataDirFlag,
    port: Flags.integer({ min: 0, max: 65535, default: 0, description: 'Port on 127.0.0.1 (0 = any free port).' }),
    open: Flags.boolean({ default: true, allowNo: true, description: 'Open the browser (--no-open: only print the single-use URL).' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Gui);
    const output = new CliOutput('human');
    const { runGui } = await import('../../gui/server/runGui.js');
    process.exitCode = await runGui({
      dataDir: flags['data-dir'],
      port: flags.port,
      open: flags.open,
      appVersion: readBuildVersion(),
      printUrl: (line) => output.stdout(line),
      note: (level, code, message, fix) => output.note({ level, code, message, ...(fix === undefined ? {} : { fix }) }),
    });
  }
}
