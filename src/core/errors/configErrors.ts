/**
 * Village and shelf files that cannot be read, parsed or written, a data dir without a village, and an id that is
 * unsafe as a path (CONFIG_IO, CONFIG_PARSE, VILLAGE_MISSING, UNSAFE_IDENTIFIER). Every message names the file;
 * a file that could not be parsed is never overwritten, and the fix says so.
 */
import type { ErrorDetails } from '../errors.js';
import { errorFactory } from './errorFactory.js';

/** A file this user cannot read or write (`verb` = read / write; `reason` = the errno code or message). */
export const fileAccessFailed = errorFactory('CONFIG_IO', (path: string, verb: string, reason: string, cause: unknown) => ({
  message: `cannot ${verb} ${path}: ${reason}`,
  fix: `Check that ${path} is readable and writable by this user.`,
  details: { file: path, reason },
  cause,
}));

/** A prompt file (SKILL, Memory, Construct, Ordinance) that exists but cannot be read. */
export const textFileUnreadable = errorFactory('CONFIG_IO', (path: string, reason: string | undefined, cause: unknown) => ({
  message: `cannot read ${path}: ${reason ?? String(cause)}`,
  fix: `Check that ${path} is a readable file.`,
  details: { file: path, reason: reason ?? 'unknown' },
  cause,
}));

/** An atomic write (temp file, fsync, rename) into `dir` that failed. */
export const atomicWriteFailed = errorFactory('CONFIG_IO', (path: string, dir: string, reason: string, cause: unknown) => ({
  message: `cannot write ${path}: ${reason}`,
  fix: `Check that ${dir} exists, is writable and has free space.`,
  details: { file: path, reason },
  cause,
}));

/** A shelf or village settings file (`what` = the consequence, e.g. "the door stays closed …") that cannot be read. */
export const settingsFileUnreadable = errorFactory('CONFIG_IO', (file: string, errno: string | undefined, consequence: string | null, cause: unknown) => ({
  message: `${file}: cannot read the file (${errno ?? 'error'})${consequence === null ? '' : `; ${consequence}`}`,
  fix: 'check the file permissions',
  details: { file },
  cause,
}));

/** seed: a file of the bake could not be moved into place. */
export const fileReplaceFailed = errorFactory('CONFIG_IO', (to: string, errno: string, cause: unknown) => ({
  message: `Cannot replace ${to} (${errno}).`,
  fix: 'Check that the data dir is writable by this user.',
  details: { file: to, reason: errno },
  cause,
}));

/** bake: a village file could not be copied into the bake. */
export const fileCopyFailed = errorFactory('CONFIG_IO', (from: string, to: string, errno: string, cause: unknown) => ({
  message: `Cannot copy ${from} to ${to} (${errno}).`,
  fix: 'Check that the file is readable and the target folder writable by this user.',
  details: { file: from, reason: errno },
  cause,
}));

/** The GUI server could not bind its loopback port. */
export const guiCannotListen = errorFactory('CONFIG_IO', (port: number, errno: string | undefined, cause: unknown) => ({
  message: `Cannot listen on 127.0.0.1:${port} (${errno ?? 'error'}).`,
  fix: 'Choose another --port, or omit it to take any free port.',
  details: { port },
  cause,
}));

/** The GUI's runtime folder (its launch files) is a link or another account's: nothing secret is written there. */
export const guiRuntimeFolderUnsafe = errorFactory('CONFIG_IO', (dir: string, why: string) => ({
  message: `The GUI's runtime folder ${dir} cannot be trusted: ${why}.`,
  fix: `Remove ${dir} (the GUI makes it again, 0700), or point XDG_RUNTIME_DIR at a private folder of yours.`,
  details: { file: dir },
}));

/** A pre-check approval needs the village's id, and this village has none that can be read. */
export const villageIdUnusable = errorFactory('CONFIG_IO', (file: string) => ({
  message: `This village has no usable village_id (${file}), so no pre-check can be approved.`,
  fix: 'Check that the workspace folder is writable, then reopen the village (the GUI creates village_id at start).',
  details: { file },
}));

/** world.json whose top level is not an object. */
export const worldNotObject = errorFactory('CONFIG_PARSE', (file: string) => ({
  message: `${file}: the top level must be a JSON object ({…})`,
  fix: `Restore ${file} from a backup, or move it away so a new village can be created.`,
  details: { file, path: '(root)' },
}));

/** world.json that is not JSON, at the first bad position. */
export const worldJsonSyntax = errorFactory('CONFIG_PARSE', (file: string, line: number, column: number, reason: string) => ({
  message: `${file}:${line}:${column}: JSON syntax error: ${reason}`,
  fix: `Fix the JSON in ${file} at line ${line}, column ${column} (it is read as an empty village and never overwritten until it parses).`,
  details: { file, line, column },
}));

/** world.json that breaks its schema: the first issues listed, `path` = the first key to correct. */
export const worldSchemaBroken = errorFactory('CONFIG_PARSE', (file: string, listed: readonly string[], more: number, path: string, issues: number) => ({
  message: `${file}: schema error at ${listed.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`,
  fix: `Correct ${path} in ${file} (docs/village-format.md lists every key, its type and its default); the file is read as an empty village and never overwritten until it is valid.`,
  details: { file, path, issues },
}));

/** A write refused because the file was read as default after a parse error (`parsed` = that error). */
export const unparsedNotOverwritten = errorFactory(
  'CONFIG_PARSE',
  (path: string, parsed: { message: string; fix: string | undefined; details: ErrorDetails | undefined }) => ({
    message: `${path} is not overwritten because it could not be parsed: ${parsed.message}`,
    fix: parsed.fix ?? `Fix ${path} by hand, then reopen the village.`,
    details: parsed.details ?? { file: path },
  }),
);

/** The shelf's probe_approvals.json could not be read, so approvals are not saved over it. */
export const approvalsUnreadable = errorFactory('CONFIG_PARSE', (file: string, reason: string) => ({
  message: `Probe approvals cannot be saved: ${file} could not be read (${reason})`,
  fix: `Fix or delete ${file} by hand; it is left untouched until then (while unreadable, no pre-check runs).`,
  details: { file },
}));

/** The door's mcp_server.json could not be parsed. */
export const doorSettingsBroken = errorFactory('CONFIG_PARSE', (file: string, reason: string) => ({
  message: `${file}: ${reason}; the door stays closed and settings are not saved`,
  fix: `fix or delete ${file} by hand (deleting it resets the door to off with a new token on the next switch-on)`,
  details: { file },
}));

/** An mcp.json that breaks its shape (`problem` names the server and key). */
export const mcpConfigBroken = errorFactory('CONFIG_PARSE', (file: string, problem: string, fix: string) => ({
  message: `${file}: ${problem}`,
  fix,
  details: { file },
}));

/** An agent's run.json that cannot be used, so an approval is not written over it. */
export const runPolicyBroken = errorFactory('CONFIG_PARSE', (file: string, agentId: string, reason: string) => ({
  message: `${file} cannot be used (${reason}), so it is not overwritten.`,
  fix: `Fix ${file} by hand (or delete it to start from nothing allowed), then decide again.`,
  agentId,
  details: { file, reason },
}));

/** An agent JSON file edited in the GUI that does not parse. */
export const agentJsonInvalid = errorFactory('CONFIG_PARSE', (file: string, agentId: string, problem: string) => ({
  message: `${file} is not saved: ${problem}`,
  fix: 'Correct the JSON, then save again.',
  agentId,
  details: { file },
}));

/** A data dir without world.json (exit 5); headless commands never create a village. */
export const villageMissing = errorFactory('VILLAGE_MISSING', (paths: { dataDir: string; world: string }) => ({
  message: `There is no village in ${paths.dataDir}: ${paths.world} does not exist.`,
  fix:
    'Check --data-dir (the folder that contains workspace/), or create a village there first: ' +
    `fuseforks-cli init --data-dir ${paths.dataDir} (the example village), or open the data dir in the GUI.`,
  details: { file: paths.world },
}));

/** world.json was deleted while the village was open. */
export const worldDisappeared = errorFactory('VILLAGE_MISSING', (file: string) => ({
  message: `${file} disappeared while the village was open.`,
  fix: 'Restore world.json (or reopen the village to create a fresh one).',
  details: { file },
}));

/** An id outside 1-`max` of [A-Za-z0-9_-]; `shown` is already JSON-quoted so it cannot forge a log line. */
export const unsafeIdentifier = errorFactory('UNSAFE_IDENTIFIER', (what: string, shown: string, max: number) => ({
  message: `${what} ${shown} is not a safe identifier`,
  fix: `Use 1-${max} characters from A-Z, a-z, 0-9, "_" and "-" for the ${what}.`,
}));

/** A session id that cannot name an export file. */
export const sessionIdNotFileName = errorFactory('UNSAFE_IDENTIFIER', (id: string) => ({
  message: `Session id ${JSON.stringify(id)} cannot be used as a file name.`,
}));

/** The shelf's pricing.json cannot be parsed: prices are not fetched and the file is never saved over. */
export const pricingSourceBroken = errorFactory('CONFIG_PARSE', (file: string, reason: string) => ({
  message: `${file}: ${reason}; prices cannot be fetched and the source is not saved`,
  fix: `Fix ${file} by hand ({"url": "https://…"}) or delete it and set the source again.`,
  details: { file },
}));

/** The shelf's pricing.json exists but cannot be read. */
export const pricingSourceUnreadable = errorFactory('CONFIG_IO', (file: string, errno: string | undefined, cause: unknown) => ({
  message: `${file}: cannot read the file (${errno ?? 'error'}); prices cannot be fetched`,
  fix: 'Check the file permissions.',
  details: { file },
  cause,
}));
