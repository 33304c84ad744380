/**
 * The environment of a stdio MCP child: the config's `env` over a minimal allowlist of the parent's variables.
 * Nothing else is inherited, so the village's `FUSEFORKS_SECRET_*` values never reach a child. Pure.
 */

/** Parent variables a child may inherit (POSIX). */
export const CHILD_ENV_ALLOWLIST_POSIX: readonly string[] = ['PATH', 'HOME', 'LANG', 'TMPDIR'];

/** Parent variables a child may inherit on Windows (npx.cmd needs PATHEXT, COMSPEC and SYSTEMROOT). */
export const CHILD_ENV_ALLOWLIST_WIN32: readonly string[] = [
  'PATH', 'PATHEXT', 'COMSPEC', 'SYSTEMROOT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'TEMP', 'TMP', 'LANG',
];

/**
 * The child's variables. Every other name the spawner would add on its own is listed as `undefined`, which
 * Node's spawn skips, so the result is exactly allowlist + config.
 */
export function mcpChildEnv(
  configEnv: Readonly<Record<string, string>>,
  parentEnv: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  maskNames: readonly string[] = [],
): Record<string, string | undefined> {
  const allow = platform === 'win32' ? CHILD_ENV_ALLOWLIST_WIN32 : CHILD_ENV_ALLOWLIST_POSIX;
  const env: Record<string, string | undefined> = {};
  for (const name of maskNames) env[name] = undefined;
  for (const name of allow) {
    const value = parentEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...configEnv };
}
