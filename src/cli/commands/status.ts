/**
 * `fuseforks-cli status --data-dir D [--max-age SECS] [--ready]` — is a `serve` alive in D? Reads the heartbeat
 * `serve` keeps in D/serve.status.json without taking the village lock, prints one line, exits 0 (healthy) or 1.
 * For a container HEALTHCHECK and Kubernetes exec probes.
 */
import { Command, Flags } from '@oclif/core';
import { dataDirFlag } from '../flags.js';
import { CliOutput } from '../output.js';

/** The `status` command. */
export default class Status extends Command {
  static override summary = 'Exit 0 when a serve in this data dir is alive and its heartbeat fresh, else 1 (no lock taken).';
  static override description =
    'Unhealthy (exit 1) when the status file is missing or unreadable, the serve process is gone, or the file is older ' +
    'than --max-age. With --ready, also when serve has not finished starting or is closing.';
  static override examples = ['<%= config.bin %> status --data-dir /data', '<%= config.bin %> status --data-dir /data --max-age 60 --ready --json'];
  static override flags = {
    'data-dir': dataDirFlag,
    'max-age': Flags.integer({ min: 1, default: 30, description: 'Seconds after which the heartbeat counts as stale (serve rewrites it every 10 s).' }),
    ready: Flags.boolean({ default: false, description: 'Readiness: require that serve has started its agents and is not closing.' }),
    json: Flags.boolean({ default: false, description: 'Print {"healthy","reason","status"} as one JSON line.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Status);
    const { runStatus } = await import('../ship/runStatus.js');
    process.exitCode = await runStatus({ dataDir: flags['data-dir'], maxAgeSecs: flags['max-age'], ready: flags.ready, json: flags.json }, new CliOutput('human'));
  }
}
