/**
 * The host's own resources (LOCK_HELD, LOCK_IO, SECRET_STORE_FAILED, SECRET_NOT_KEPT, SECRET_STORE_READ_ONLY, SECRET_NAME_COLLISION,
 * MCP_FAILED, DOOR_CLOSING, BLACKBOARD_DELETE_FAILED, BAKE_INVALID, BAKE_VILLAGE_MISMATCH). Secret texts name keys and variables,
 * never a value.
 */
import { errorFactory } from './errorFactory.js';

/** The village lock is held by another process. */
export const villageLockHeld = errorFactory('LOCK_HELD', (lockPath: string, errno: string | null, cause: unknown) => ({
  message: `This village is open in another process (the Fuseforks GUI or fuseforks-cli): ${lockPath} is locked.`,
  fix: 'Close the other Fuseforks GUI or fuseforks-cli using this village, then try again.',
  details: { path: lockPath, errno },
  cause,
}));

/** The filesystem of the village has no OS file locks. */
export const noOsLocks = errorFactory('LOCK_IO', (lockPath: string, errno: string | null, cause: unknown) => ({
  message: `Cannot lock the village at ${lockPath}: this filesystem does not support OS file locks (${errno}).`,
  fix: 'Put the village on a local filesystem (not a network share) that supports flock.',
  details: { path: lockPath, errno },
  cause,
}));

/** The lock file cannot be created or opened. */
export const lockFileUnusable = errorFactory('LOCK_IO', (lockPath: string, errno: string | null, cause: unknown) => ({
  message: `Cannot create or open the village lock file ${lockPath} (${errno}).`,
  fix: 'Check that the workspace folder exists and is writable by this user.',
  details: { path: lockPath, errno },
  cause,
}));

/** The workspace folder (where the lock lives) cannot be created. */
export const workspaceUncreatable = errorFactory('LOCK_IO', (workspace: string, errno: string, cause: unknown) => ({
  message: `Cannot create the workspace folder ${workspace} (${errno}).`,
  fix: 'Check --data-dir and that this user may create folders there.',
  details: { path: workspace, errno },
  cause,
}));

/** The OS keyring refused an operation; `reason` is the platform's failure, never the value. */
export const keyringRefused = errorFactory('SECRET_STORE_FAILED', (operation: string, key: string, reason: string, cause: unknown) => ({
  message: `The OS keyring refused to ${operation} the secret "${key}": ${reason}`,
  fix:
    'On a headless machine or in a container there is usually no unlocked keyring: run with --secrets env and ' +
    'set FUSEFORKS_SECRET_<KEY> variables, or unlock a Secret Service keyring (gnome-keyring) first.',
  details: { operation, key },
  cause,
}));

/**
 * A key the OS keyring accepted but does not keep: it read back missing or different, or (Linux) no Secret Service
 * answers, so only the kernel keyring is left, which forgets keys. `why` says which; never the value.
 */
export const secretNotKept = errorFactory('SECRET_NOT_KEPT', (key: string, why: string) => ({
  message: `The OS keyring did not keep the secret "${key}": ${why}. Nothing was changed in the village.`,
  fix:
    'Start and unlock a Secret Service in this session (gnome-keyring, KWallet, or KeePassXC with its Secret Service ' +
    'on; `secret-tool store` must work there), then run it again; or run headless with --secrets env and ' +
    'FUSEFORKS_SECRET_<KEY> variables.',
  details: { key },
}));

/** A write to the environment secret store. */
export const envSecretsReadOnly = errorFactory('SECRET_STORE_READ_ONLY', (envName: string) => ({
  message: `The environment secret store is read-only; it cannot change ${envName}.`,
  fix: `Set ${envName} in the environment before starting fuseforks-cli, or run with --secrets keyring to store keys in the OS keyring.`,
  details: { variable: envName },
}));

/** Secret keys that map to one FUSEFORKS_SECRET_* variable (exit 5); names variables and keys, never values. */
export const secretNameCollisionError = errorFactory('SECRET_NAME_COLLISION', (collisions: readonly { envName: string; keys: readonly string[] }[]) => ({
  message: `With --secrets env, these secret keys map to the same environment variable: ${collisions.map((c) => `${c.envName} ← ${c.keys.join(' / ')}`).join('; ')}.`,
  fix:
    'Rename a model template in world.json (or in the GUI) so that each key maps to its own ' +
    'FUSEFORKS_SECRET_* variable, or use --secrets keyring.',
  details: { collisions: collisions.length, variables: collisions.map((c) => c.envName).join(',') },
}));

/** The door was switched on without a usable token. */
export const doorTokenMissing = errorFactory('MCP_FAILED', () => ({
  message: 'the door needs a 32-hex token (mcp_server.json "token")',
  fix: 'switch the door on again to generate a token',
}));

/** The door cannot bind its port. */
export const doorCannotListen = errorFactory('MCP_FAILED', (port: number, errno: string | undefined, why: string, cause: unknown) => ({
  message: `the door cannot listen on 127.0.0.1:${port} (${errno ?? why})`,
  fix: errno === 'EADDRINUSE' ? `another program uses port ${port}; choose another port in mcp_server.json` : 'check the port in mcp_server.json',
  details: { port },
  cause,
}));

/** An MCP server that did not connect (`timeoutSecs` set) or failed to (`why` set). */
export const mcpConnectFailed = errorFactory('MCP_FAILED', (server: string, failure: { timeoutSecs: number } | { why: string }, cause?: unknown) => ({
  message:
    'timeoutSecs' in failure
      ? `MCP server "${server}" did not connect and list its tools within ${failure.timeoutSecs} s`
      : `MCP server "${server}" failed to connect: ${failure.why}`,
  fix: 'check the command or URL in mcp.json and that the server starts on its own',
  details: { server },
  cause,
}));

/** An HTTP MCP server needs an OAuth login that is not stored (or no longer works): `mcp login` fixes it. */
export const mcpAuthRequired = errorFactory('MCP_AUTH_REQUIRED', (server: string, why: string) => ({
  message: `MCP server "${server}" needs a login (OAuth): ${why}`,
  fix: `run: fuseforks-cli mcp login ${server} -d DIR; under --secrets env set the variable mcp status names`,
  details: { server },
}));

/** An MCP tool call that failed at the transport, or was cancelled (`why` = null). */
export const mcpCallFailed = errorFactory('MCP_FAILED', (server: string, tool: string, why: string | null, cause: unknown) => ({
  message: why === null ? `MCP call ${server}/${tool} was cancelled` : `MCP call ${server}/${tool} failed: ${why}`,
  details: { server, tool, cancelled: why === null },
  cause,
}));

/** An agent called an MCP tool that is not connected for it. */
export const mcpToolNotConnected = errorFactory('MCP_FAILED', (name: string, agentId: string) => ({
  message: `no MCP tool "${name}" is connected for agent "${agentId}"`,
  agentId,
  fix: 'reload the MCP servers or restart the agent',
}));

/** A worker asked the main thread for a tool it does not have. */
export const mainToolNotConnected = errorFactory('MCP_FAILED', (name: string, agentId: string) => ({
  message: `no main-thread tool named ${name} is connected`,
  agentId,
  fix: 'check the MCP servers in mcp.json for this agent',
}));

/** A person's delete or clear of blackboard notes failed, naming the note or folder. */
export const blackboardDeleteFailed = errorFactory('BLACKBOARD_DELETE_FAILED', (what: string, reason: string) => ({
  message: `Cannot delete ${what} from the blackboard: ${reason}.`,
  fix: 'Check that the work folder exists and is writable, and that blackboard/ is a plain folder; then try again.',
  details: { what, reason },
}));

/** A folder that is not a bake, or an --out that would overwrite something (`problem` names the file). */
export const bakeInvalid = errorFactory('BAKE_INVALID', (problem: string, fix: string) => ({ message: problem, fix }));

/** seed --update-design with a bake of another village. */
export const bakeVillageMismatch = errorFactory('BAKE_VILLAGE_MISMATCH', (bakeId: string | null, dataId: string | null, dataDir: string) => ({
  message: `The bake is of village ${bakeId ?? '(no id)'} but ${dataDir} holds village ${dataId ?? '(no id)'}; its sessions would not belong to the new design.`,
  fix: 'Seed an empty data dir with this bake, or bake the village that lives in this data dir.',
  details: { bake: bakeId, data: dataId },
}));

/** A door request cut by the village shutting down. */
export const doorClosing = errorFactory('DOOR_CLOSING', () => ({
  message: 'the village is shutting down; this request was not answered',
  fix: 'send it again once the village is running again',
}));

/** A command refused because the OS sandbox cannot be had here (`detail` = what is missing, `fix` = what to do). */
export const sandboxUnavailable = errorFactory('SANDBOX_UNAVAILABLE', (detail: string, fix: string) => ({
  message: `Commands run only inside the sandbox, and it cannot be had here: ${detail}.`,
  fix: `${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`,
  details: { detail },
}));
