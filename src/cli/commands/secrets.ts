/**
 * `fuseforks-cli secrets list|set|delete` — API keys of the model templates, names and presence only. Thin: parse,
 * then the lazily loaded runners in `../manage/secrets.js`. `set` has no flag or argument for the value on purpose.
 */
import { Args, Command } from '@oclif/core';
import { manageFlags, humanOutputOf as outputOf, secretsFlag } from '../flags.js';
import { CliOutput, processStreams } from '../output.js';

const secretsFlags = { ...manageFlags, secrets: secretsFlag };

const nameArg = { name: Args.string({ required: true, description: 'The key: a model template id, or jev_api_token (see secrets list).' }) };

const HELD = 'Refused (exit 4) while serve or the GUI has the village open: register the key there, or stop it first.';

/** `secrets list`. */
export class SecretsList extends Command {
  static override summary = 'List the model templates\' keys and the Jev token: stored or missing in the chosen store (never a value).';
  static override description = 'Read-only: also answers while serve or the GUI has the village open. With --secrets env it names the FUSEFORKS_SECRET_* variable of each key.';
  static override examples = ['<%= config.bin %> secrets list -d ./data', '<%= config.bin %> secrets list -d ./data --secrets env --json'];
  static override flags = secretsFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(SecretsList);
    const { runSecretsList } = await import('../manage/secrets.js');
    process.exitCode = await runSecretsList({ dataDir: flags['data-dir'], json: flags.json, secrets: flags.secrets }, outputOf(flags));
  }
}

/** `secrets set NAME` (the value from stdin or a hidden prompt). */
export class SecretsSet extends Command {
  static override summary = 'Store a model template\'s API key (or jev_api_token) in the keyring; the value comes from stdin or a hidden prompt.';
  static override description =
    'Never pass the value as an argument (shell history, process listings): it is refused. Marks the template ' +
    `"credential": "keyring" in world.json as the GUI's Register does. The env store is read-only. ${HELD}`;
  static override examples = [
    'printf %s "$OPENAI_KEY" | <%= config.bin %> secrets set gpt-main -d ./data',
    '<%= config.bin %> secrets set gpt-main -d ./data        # asks, without echo',
  ];
  static override args = nameArg;
  static override flags = secretsFlags;
  // Anything after the name is collected and refused by the runner, which never prints it (oclif would echo it).
  static override strict = false;

  async run(): Promise<void> {
    const parsed = await this.parse(SecretsSet).catch(() => null);
    if (parsed === null) {
      // Marks the command as parsed for oclif, which would otherwise add a developer warning to this refusal.
      Object.assign(this, { parsed: true });
      // oclif's own message repeats the offending word (`--value=…`), which may be the key itself: say it plainly.
      new CliOutput('human', processStreams).note({
        level: 'error',
        code: 'ARGUMENT',
        message: 'The command line of secrets set could not be read; nothing was stored (its words are not repeated here, in case one was the key).',
        fix: 'Run: printf %s "$KEY" | fuseforks-cli secrets set NAME -d DIR [--secrets keyring|env] [--json] — the value only ever on standard input or at the hidden prompt.',
      });
      process.exitCode = 2;
      return;
    }
    const { args, argv, flags } = parsed;
    const { runSecretsSet } = await import('../manage/secrets.js');
    process.exitCode = await runSecretsSet(
      { dataDir: flags['data-dir'], json: flags.json, secrets: flags.secrets, name: args.name, extra: argv.slice(1).map(String) },
      process.stdin,
      outputOf(flags),
    );
  }
}

/** `secrets delete NAME`. */
export class SecretsDelete extends Command {
  static override summary = 'Delete a model template\'s API key from the keyring (the template becomes "unset").';
  static override description = `As the GUI's Clear key. The env store is read-only. ${HELD}`;
  static override examples = ['<%= config.bin %> secrets delete gpt-main -d ./data'];
  static override args = nameArg;
  static override flags = secretsFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SecretsDelete);
    const { runSecretsDelete } = await import('../manage/secrets.js');
    process.exitCode = await runSecretsDelete({ dataDir: flags['data-dir'], json: flags.json, secrets: flags.secrets, name: args.name }, outputOf(flags));
  }
}
