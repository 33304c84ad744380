/**
 * `fuseforks-cli sessions list|show|export|fork|summarize` — the village's stored conversations. Thin: parse, then
 * the lazily loaded runners in `../manage/sessions.js` and `../manage/sessionsSummarize.js`.
 */
import { Args, Command, Flags } from '@oclif/core';
import { dataDirFlag, humanOutputOf, outputFlags, secretsFlag } from '../flags.js';

const sessionFlags = {
  'data-dir': dataDirFlag,
  json: Flags.boolean({ default: false, description: 'Print one JSON object on stdout.' }),
  ...outputFlags,
};

const idArg = { id: Args.string({ required: true, description: 'The conversation id (see sessions list).' }) };

const BESIDE = 'Read-only: also answers while serve or the GUI has the village open (it then reads the store beside it).';

/** `sessions list`. */
export class SessionsList extends Command {
  static override summary = 'List the stored conversations, newest first: id, last update, records, title.';
  static override description = BESIDE;
  static override examples = ['<%= config.bin %> sessions list -d ./data', '<%= config.bin %> sessions list -d ./data --json'];
  static override flags = sessionFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(SessionsList);
    const { runSessionsList } = await import('../manage/sessions.js');
    process.exitCode = await runSessionsList({ dataDir: flags['data-dir'], json: flags.json }, humanOutputOf(flags));
  }
}

/** `sessions show ID`. */
export class SessionsShow extends Command {
  static override summary = 'Show one conversation: its messages and summaries, each numbered with its seq.';
  static override description = `${BESIDE} The numbers are what sessions fork --at takes.`;
  static override examples = ['<%= config.bin %> sessions show 1796255040599-34984a9a -d ./data'];
  static override flags = sessionFlags;
  static override args = idArg;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionsShow);
    const { runSessionsShow } = await import('../manage/sessions.js');
    process.exitCode = await runSessionsShow({ dataDir: flags['data-dir'], json: flags.json, id: args.id }, humanOutputOf(flags));
  }
}

/** `sessions export ID [--stdout]`. */
export class SessionsExport extends Command {
  static override summary = 'Export one conversation as JSON lines: workspace/exports/<id>.jsonl (as the GUI does), or --stdout.';
  static override description = `${BESIDE} Line 1 is the conversation and its meta, then one line per record, folded exchanges included.`;
  static override examples = [
    '<%= config.bin %> sessions export 1796255040599-34984a9a -d ./data',
    '<%= config.bin %> sessions export 1796255040599-34984a9a -d ./data --stdout > chat.jsonl',
  ];
  static override flags = {
    ...sessionFlags,
    stdout: Flags.boolean({ default: false, description: 'Write the JSON lines to stdout instead of the exports folder.', exclusive: ['json'] }),
  };
  static override args = idArg;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionsExport);
    const { runSessionsExport } = await import('../manage/sessions.js');
    process.exitCode = await runSessionsExport({ dataDir: flags['data-dir'], json: flags.json, id: args.id, stdout: flags.stdout }, humanOutputOf(flags));
  }
}

/** `sessions fork ID [--at SEQ]`. */
export class SessionsFork extends Command {
  static override summary = 'Copy a conversation up to a record (default: all of it) into a new one; prints the new id.';
  static override description = 'Refused (exit 4) while the village is open elsewhere: use the GUI\'s conversation menu there.';
  static override examples = ['<%= config.bin %> sessions fork 1796255040599-34984a9a -d ./data --at 12'];
  static override flags = {
    ...sessionFlags,
    at: Flags.integer({ min: 0, helpValue: '<seq>', description: 'The last record to copy (a # number of sessions show).' }),
  };
  static override args = idArg;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionsFork);
    const { runSessionsFork } = await import('../manage/sessions.js');
    process.exitCode = await runSessionsFork(
      { dataDir: flags['data-dir'], json: flags.json, id: args.id, ...(flags.at === undefined ? {} : { atSeq: flags.at }) },
      humanOutputOf(flags),
    );
  }
}

/** `sessions summarize [--session ID] [--agent ID]…`. */
export class SessionsSummarize extends Command {
  static override summary = 'Summarize and continue: fold each agent\'s history into a summary its next turns carry (costs tokens).';
  static override description =
    'One request without tools per agent with something new to fold, made with that agent\'s own model; the summary is ' +
    'stored in the conversation and the folded exchanges leave the agent\'s prompt (the store and its export keep them). ' +
    'Refused (exit 4) while the village is open elsewhere: use Summarize in the GUI\'s chat there.';
  static override examples = [
    '<%= config.bin %> sessions summarize -d ./data',
    '<%= config.bin %> sessions summarize -d ./data --agent front --agent notes --json',
  ];
  static override flags = {
    ...sessionFlags,
    session: Flags.string({ helpValue: '<id>', description: 'The conversation (default: the latest).' }),
    agent: Flags.string({ multiple: true, helpValue: '<id>', description: 'Only this agent (repeatable; default: every agent).' }),
    secrets: secretsFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SessionsSummarize);
    const { runSessionsSummarize } = await import('../manage/sessionsSummarize.js');
    process.exitCode = await runSessionsSummarize(
      {
        dataDir: flags['data-dir'],
        json: flags.json,
        agents: flags.agent ?? [],
        secrets: flags.secrets,
        ...(flags.session === undefined ? {} : { session: flags.session }),
      },
      humanOutputOf(flags),
    );
  }
}
