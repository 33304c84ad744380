/**
 * `fuseforks-cli templates list`: the village's model templates with what a script needs (never a key: only
 * whether one is stored). Through HostApi when the village is free; beside a running owner from world.json, with
 * `hasKey` unknown (null) — the key store is that process's to read.
 */
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import type { ModelTemplate } from '../../core/world/types.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import { jsonText } from '../jsonFormat.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';

/** One template as `templates list --json` prints it. */
export interface TemplateRow {
  id: string;
  name: string;
  provider: string | null;
  baseUrl: string;
  model: string;
  credential: ModelTemplate['credential'];
  /** A key is stored for it; null while another process holds the village. */
  hasKey: boolean | null;
  stream: boolean;
}

/** The row of one template. */
export function templateRow(t: ModelTemplate, hasKey: boolean | null): TemplateRow {
  return { id: t.id, name: t.name, provider: t.provider ?? t.unsupportedProvider ?? null, baseUrl: t.baseUrl, model: t.model, credential: t.credential, hasKey, stream: t.stream };
}

/** One line per template for people. */
export function templateLine(row: TemplateRow): string {
  const key = row.hasKey === null ? 'key unknown' : row.hasKey ? 'key stored' : `credential ${row.credential}`;
  return `${row.id}  ${JSON.stringify(row.name)}  ${row.provider ?? 'auto'}  ${row.baseUrl || '(no URL)'}  ${row.model || '(no model)'}  ${key}`;
}

/** `templates list`. */
export async function runTemplatesList(options: { dataDir: string; json: boolean }, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(
    options.dataDir,
    'templates list',
    output,
    async (host) => {
      const state = host.village.state();
      return state.world.modelTemplates.map((t) => templateRow(t, state.hasKey[t.id] === true));
    },
    true,
  );
  let rows: TemplateRow[];
  let held = false;
  if (managed.ok) rows = managed.value;
  else if (managed.held) {
    const load = await loadWorld(villagePaths(options.dataDir), { locale: systemLocale() });
    rows = load.kind === 'missing' ? [] : load.doc.world.modelTemplates.map((t) => templateRow(t, null));
    held = true;
  } else return managed.exit;
  if (options.json) output.stdout(jsonText({ held, templates: rows }));
  else output.stdout(rows.length === 0 ? 'no model templates' : rows.map(templateLine).join('\n'));
  return EXIT.ok;
}
