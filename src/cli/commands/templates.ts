/**
 * `fuseforks-cli templates list|add|edit|remove` — the village's model templates from a script (keys: `secrets`).
 * Thin: parse, then the lazily loaded runners in `../manage/templates.js` and `../manage/designEdits.js`.
 */
import { Args, Command, Flags } from '@oclif/core';
import { KNOWN_PROVIDERS } from '../../core/world/enums.js';
import { humanOutputOf, manageFlags } from '../flags.js';
import { baseOption, DESIGN_BASE, DESIGN_HELD, designFlags } from './designFlags.js';

const idArg = Args.string({ required: true, description: 'The template id (letters, digits, _ and -).' });

const BASE_URL = { helpValue: '<url>', description: 'The provider endpoint, e.g. https://api.openai.com/v1.' };
const MODEL = { helpValue: '<model>', description: 'The model name the provider expects.' };

const fieldFlags = {
  name: Flags.string({ helpValue: '<name>', description: 'The display name.' }),
  'base-url': Flags.string(BASE_URL),
  model: Flags.string(MODEL),
  provider: Flags.string({ options: [...KNOWN_PROVIDERS, 'auto'], description: 'The wire it speaks (auto: from the URL).' }),
  credential: Flags.option({ options: ['unset', 'not_required'] as const, description: 'unset: a key is needed (set it with secrets set); not_required: a local server without a key.' })(),
  stream: Flags.boolean({ allowNo: true, description: 'Stream replies (--no-stream for proxies that break server-sent events).' }),
};

type FieldFlags = { name?: string | undefined; 'base-url'?: string | undefined; model?: string | undefined; provider?: string | undefined; credential?: 'unset' | 'not_required' | undefined; stream?: boolean | undefined };

function fieldsOf(flags: FieldFlags) {
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags['base-url'] === undefined ? {} : { baseUrl: flags['base-url'] }),
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.provider === undefined ? {} : { provider: flags.provider === 'auto' ? null : flags.provider }),
    ...(flags.credential === undefined ? {} : { credential: flags.credential }),
    ...(flags.stream === undefined ? {} : { stream: flags.stream }),
  };
}

/** `templates list`. */
export class TemplatesList extends Command {
  static override summary = 'List the model templates: id, name, provider, URL, model, whether a key is stored.';
  static override description = 'Read-only: also answers while serve or the GUI has the village open (from world.json; whether a key is stored is then unknown).';
  static override examples = ['<%= config.bin %> templates list -d ./data --json'];
  static override flags = manageFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(TemplatesList);
    const { runTemplatesList } = await import('../manage/templates.js');
    process.exitCode = await runTemplatesList({ dataDir: flags['data-dir'], json: flags.json }, humanOutputOf(flags));
  }
}

/** `templates add`. */
export class TemplatesAdd extends Command {
  static override summary = 'Add a model template (refused when the id exists: use templates edit).';
  static override description = `Writes workspace/world.json as the GUI's template form does; the key goes in with secrets set. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> templates add local -d ./data --base-url http://127.0.0.1:11434/v1 --model qwen3 --credential not_required'];
  static override args = { id: idArg };
  static override flags = { ...designFlags, ...fieldFlags, 'base-url': Flags.string({ ...BASE_URL, required: true }), model: Flags.string({ ...MODEL, required: true }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(TemplatesAdd);
    const { runTemplateSave } = await import('../manage/designEdits.js');
    process.exitCode = await runTemplateSave({ dataDir: flags['data-dir'], json: flags.json, id: args.id, mode: 'add', fields: fieldsOf(flags), ...baseOption(flags) }, humanOutputOf(flags));
  }
}

/** `templates edit`. */
export class TemplatesEdit extends Command {
  static override summary = 'Change a model template (fields not given stay as they are).';
  static override description = `Saves it as the GUI's template form does. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> templates edit demo -d ./data --model gpt-4.1-mini'];
  static override args = { id: idArg };
  static override flags = { ...designFlags, ...fieldFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(TemplatesEdit);
    const { runTemplateSave } = await import('../manage/designEdits.js');
    process.exitCode = await runTemplateSave({ dataDir: flags['data-dir'], json: flags.json, id: args.id, mode: 'edit', fields: fieldsOf(flags), ...baseOption(flags) }, humanOutputOf(flags));
  }
}

/** `templates remove`. */
export class TemplatesRemove extends Command {
  static override summary = 'Remove a model template (refused while an agent uses it); its stored key goes too.';
  static override description = `${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> templates remove old -d ./data'];
  static override args = { id: idArg };
  static override flags = designFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(TemplatesRemove);
    const { runTemplateRemove } = await import('../manage/designEdits.js');
    process.exitCode = await runTemplateRemove({ dataDir: flags['data-dir'], json: flags.json, id: args.id, ...baseOption(flags) }, humanOutputOf(flags));
  }
}
