/** `fuseforks-cli status` as a testable function: read the heartbeat, judge it, one line on stdout, 0 or 1. */
import { jsonText } from '../jsonFormat.js';
import { resolve } from 'node:path';
import { judgeServeStatus, pidAlive, readServeStatus } from '../../host/health/serveStatus.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';

/** Parsed arguments of `status`. */
export interface StatusOptions {
  dataDir: string;
  maxAgeSecs: number;
  ready: boolean;
  json: boolean;
  now?: () => number;
}

/** Runs `status`: 0 healthy, 1 not. Writes nothing anywhere but stdout. */
export async function runStatus(options: StatusOptions, output: CliOutput): Promise<ExitCode> {
  const read = await readServeStatus(resolve(options.dataDir));
  const verdict = judgeServeStatus(read, {
    nowMs: (options.now ?? Date.now)(),
    maxAgeSecs: options.maxAgeSecs,
    ready: options.ready,
    pidAlive,
  });
  if (options.json) output.stdout(jsonText({ ...verdict, status: read.kind === 'ok' ? read.doc : null }));
  else output.stdout(`${verdict.healthy ? 'healthy' : 'unhealthy'}: ${verdict.reason}`);
  return verdict.healthy ? EXIT.ok : EXIT.coreError;
}
