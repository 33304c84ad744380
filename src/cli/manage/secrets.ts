/**
 * `fuseforks-cli secrets list|set|delete`: the API keys of the village's model templates (and Jev's
 * `jev_api_token`) in the chosen store (`--secrets keyring|env`), through `HostApi.village` / `HostApi.jev` — the
 * GUI's Register / Clear key, so world.json's `credential` ends up byte for byte as the GUI leaves it. Only names and presence are ever printed. `set` reads the
 * value from stdin or a hidden prompt and refuses one on the command line; the env store is read-only, so `set` and
 * `delete` name the variable to set instead. `list` is read-only and also answers beside a running owner.
 */
import { jsonText } from '../jsonFormat.js';
import { FuseforksError } from '../../core/errors.js';
import { EnvSecretStore } from '../../core/secrets/envSecretStore.js';
import { openSecretStore, type SecretSource } from '../../core/secrets/openSecretStore.js';
import { envNameForKey, JEV_TOKEN_KEY } from '../../core/secrets/secretNames.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import type { ModelTemplate } from '../../core/world/types.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';
import { readSecretValue, type SecretInputStream } from './secretInput.js';

/** What every secrets command takes. */
export interface SecretsOptions {
  dataDir: string;
  json: boolean;
  secrets: SecretSource;
}

/** One key as `list` shows it: never a value. */
export interface SecretRow {
  /** The key: a model template id, or `jev_api_token`. */
  name: string;
  /** What the template says (`keyring` = a key is expected in the store); null for the Jev token. */
  credential: ModelTemplate['credential'] | null;
  /** Whether the chosen store holds a value for it. */
  stored: boolean;
  /** The variable `--secrets env` reads it from. */
  variable: string;
}

/** One row per template, then the Jev token. */
function rowsOf(templates: readonly ModelTemplate[], has: (name: string) => boolean, jevStored: boolean): SecretRow[] {
  const rows: SecretRow[] = templates.map((t) => ({ name: t.id, credential: t.credential, stored: has(t.id), variable: envNameForKey(t.id) }));
  return [...rows, { name: JEV_TOKEN_KEY, credential: null, stored: jevStored, variable: envNameForKey(JEV_TOKEN_KEY) }];
}

function print(rows: SecretRow[], options: SecretsOptions, output: CliOutput): void {
  if (options.json) return output.stdout(jsonText({ store: options.secrets, secrets: rows }));
  const where = (r: SecretRow): string => (options.secrets === 'env' ? r.variable : 'keyring');
  output.stdout(rows.map((r) => `${r.name}  ${r.stored ? 'stored' : 'missing'} (${where(r)})${r.credential === null ? '  Jev helper token' : `  credential ${r.credential}`}`).join('\n'));
}

/** `secrets list`: through HostApi, or from world.json and the store while another process holds the village. */
export async function runSecretsList(options: SecretsOptions, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(
    options.dataDir,
    'secrets list',
    output,
    async (host) => {
      const { hasKey } = host.village.state();
      return rowsOf(host.world().modelTemplates, (name) => hasKey[name] === true, (await host.jev.view()).tokenPresent);
    },
    true,
    options.secrets,
  );
  if (managed.ok) {
    print(managed.value, options, output);
    return EXIT.ok;
  }
  if (!managed.held) return managed.exit;
  const load = await loadWorld(villagePaths(options.dataDir), { locale: systemLocale() });
  const store = openSecretStore(options.secrets);
  const has = (name: string): boolean => {
    try {
      return store.has(name);
    } catch {
      return false;
    }
  };
  print(rowsOf(load.kind === 'missing' ? [] : load.doc.world.modelTemplates, has, has(JEV_TOKEN_KEY)), options, output);
  return EXIT.ok;
}

/** `secrets set NAME`: `extra` holds whatever else was on the command line (refused, never printed). */
export async function runSecretsSet(
  options: SecretsOptions & { name: string; extra: readonly string[] },
  input: SecretInputStream,
  output: CliOutput,
): Promise<ExitCode> {
  if (options.extra.length > 0) {
    output.note({
      level: 'error',
      code: 'ARGUMENT',
      message: 'secrets set never takes the value on the command line (it would stay in your shell history and in process listings); nothing was stored.',
      fix: `Pipe it in (printf %s "$KEY" | fuseforks-cli secrets set ${options.name} -d DIR) or run the command without it and type it at the hidden prompt.`,
    });
    return EXIT.argumentError;
  }
  if (options.secrets === 'env') return readOnly(options.name, output);
  const value = await readSecretValue(input, (text) => process.stderr.write(text), `API key for model template ${options.name} (not shown): `);
  if (value === null || value.trim() === '') {
    output.note({
      level: 'error',
      code: 'ARGUMENT',
      message: value === null ? 'Cancelled; nothing was stored.' : 'No value was given (standard input was empty); nothing was stored.',
      fix: `Pipe the key in (printf %s "$KEY" | fuseforks-cli secrets set ${options.name} -d DIR); to remove a key use secrets delete.`,
    });
    return EXIT.argumentError;
  }
  return change(options, 'secrets set', output, async (host) => {
    if (options.name === JEV_TOKEN_KEY) return { hasKey: {}, jev: (await host.jev.setToken(value)).tokenPresent };
    return { hasKey: (await host.village.setApiKey(options.name, value)).hasKey, jev: false };
  });
}

/** `secrets delete NAME`. */
export async function runSecretsDelete(options: SecretsOptions & { name: string }, output: CliOutput): Promise<ExitCode> {
  if (options.secrets === 'env') return readOnly(options.name, output);
  return change(options, 'secrets delete', output, async (host) => {
    if (options.name === JEV_TOKEN_KEY) return { hasKey: {}, jev: (await host.jev.clearToken()).tokenPresent };
    return { hasKey: (await host.village.clearApiKey(options.name)).hasKey, jev: false };
  });
}

/** The env store's own refusal (naming the variable to set), before anything is read or opened. */
function readOnly(name: string, output: CliOutput): ExitCode {
  try {
    new EnvSecretStore({}).set(name, '');
  } catch (error) {
    if (!(error instanceof FuseforksError)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
  }
  return EXIT.coreError;
}

async function change(
  options: SecretsOptions & { name: string },
  command: string,
  output: CliOutput,
  fn: (host: import('../../host/hostApi.js').HostApi) => Promise<{ hasKey: Record<string, boolean>; jev: boolean }>,
): Promise<ExitCode> {
  const managed = await withVillage(
    options.dataDir,
    command,
    output,
    async (host) => {
      const state = await fn(host);
      return rowsOf(host.world().modelTemplates, (name) => state.hasKey[name] === true, state.jev).filter((r) => r.name === options.name);
    },
    false,
    options.secrets,
  );
  if (!managed.ok) return managed.exit;
  const row = managed.value[0];
  if (options.json) output.stdout(jsonText({ store: options.secrets, secret: row ?? null }));
  else output.stdout(row === undefined ? '' : `${row.name}: ${row.stored ? 'stored in the keyring' : 'no key stored'}${row.credential === null ? '' : ` (credential ${row.credential})`}`);
  return EXIT.ok;
}
