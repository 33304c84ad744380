/**
 * `fuseforks-cli eval` — runs the village's eval cases (`workspace/evals/*.json`) and reports whether the flow
 * holds: a table and a summary line on stdout (or one `--json` object), JUnit XML with `--junit FILE`, exit 0 when
 * every case passed and 10 when some did not. Thin: signals first, parse, then the lazily loaded runner.
 */
import { Command, Flags } from '@oclif/core';
import { outputFlags, villageFlags } from '../flags.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';
import { processSignals } from '../signals.js';

/** The `eval` command. */
export default class Eval extends Command {
  static override summary = 'Run the village\'s eval cases and report which pass.';
  static override description =
    'Each repeat of each case runs in a fresh conversation of the village (every agent restarted, real models and ' +
    'tools), one at a time; the answer and the run are checked against the case\'s expectations and a case passes ' +
    'when its share of passing repeats reaches minPassRate. Results are kept on this machine ({dataDir}/eval-results), ' +
    'never in the design. Exit 0 all passed, 10 some did not, 8 interrupted, 2 a --case that is not there or unusable.';
  static override examples = [
    '<%= config.bin %> eval -d ./data --start batch',
    '<%= config.bin %> eval -d ./data --start batch --case research-basics --repeat 5 --budget 200000',
    '<%= config.bin %> eval -d ./data --start batch --json --junit evals.xml --secrets env',
  ];
  static override flags = {
    ...villageFlags,
    case: Flags.string({ multiple: true, helpValue: '<id>', description: 'Run only this case (its file name without .json); repeatable.' }),
    repeat: Flags.integer({ min: 1, max: 100, description: 'Repeats per case, instead of each case\'s own "repeat".' }),
    budget: Flags.integer({ min: 1, helpValue: '<tokens>', description: 'Effective tokens the whole run may spend; no repeat starts once they are spent.' }),
    json: Flags.boolean({ default: false, description: 'Print the run as one JSON object on stdout.' }),
    junit: Flags.string({ helpValue: '<file>', description: 'Also write the run as JUnit XML to this file (for CI).' }),
    ...outputFlags,
  };

  async run(): Promise<void> {
    const signals = processSignals();
    const { flags } = await this.parse(Eval);
    const { runEval } = await import('../eval/runEval.js');
    process.exitCode = await runEval(
      {
        dataDir: flags['data-dir'],
        start: flags.start,
        secrets: flags.secrets,
        bypassPlanReview: flags['bypass-plan-review'],
        runApproval: flags['run-approval'],
        caseIds: flags.case ?? [],
        json: flags.json,
        ...(flags.repeat === undefined ? {} : { repeat: flags.repeat }),
        ...(flags.budget === undefined ? {} : { budget: flags.budget }),
        ...(flags.junit === undefined ? {} : { junit: flags.junit }),
      },
      new CliOutput('human', processStreams, noteLevelOf(flags)),
      signals,
    );
    signals.dispose();
  }
}
