/**
 * `fuseforks-cli pricing` — the price-table source on this machine's shelf and the one fetch a person asks for.
 * Thin: parse, then the lazily loaded runner in `../manage/pricing.js`.
 */
import { Command, Flags } from '@oclif/core';
import { dataDirFlag, outputFlags } from '../flags.js';
import { CliOutput, noteLevelOf, processStreams } from '../output.js';

/** `pricing [--url URL | --clear] [--fetch] [--json]`. */
export default class Pricing extends Command {
  static override summary = 'Show or set the price-table URL (pricing.json); --fetch reads the table once and prices the templates it names.';
  static override description =
    'Without flags: the source, read-only (also while serve or the GUI holds the village). --url sets it (https, or http to 127.0.0.1), ' +
    '--clear removes it. --fetch GETs the table now — the only time anything is fetched — and writes its prices and date into every ' +
    'model template whose model the table names; the others stay as they are. Changes are refused (exit 4) while the village is open elsewhere.';
  static override examples = [
    '<%= config.bin %> pricing -d ./data',
    '<%= config.bin %> pricing -d ./data --url https://example.com/prices.json --fetch',
  ];
  static override flags = {
    'data-dir': dataDirFlag,
    url: Flags.string({ description: 'Set the price table URL first.', exclusive: ['clear'] }),
    clear: Flags.boolean({ default: false, description: 'Remove the price table URL.' }),
    fetch: Flags.boolean({ default: false, description: 'Fetch the table now and apply it to the matching templates.' }),
    json: Flags.boolean({ default: false, description: 'Print one JSON object on stdout.' }),
    ...outputFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Pricing);
    const { runPricing } = await import('../manage/pricing.js');
    process.exitCode = await runPricing(
      { dataDir: flags['data-dir'], url: flags.clear ? null : (flags.url ?? undefined), fetch: flags.fetch, json: flags.json },
      new CliOutput('human', processStreams, noteLevelOf(flags)),
    );
  }
}
