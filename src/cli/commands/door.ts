/**
 * `fuseforks-cli door status|enable|disable|token` — the MCP door on this machine's shelf. Thin: parse, then the
 * lazily loaded runner in `../manage/door.js`.
 */
import { Command, Flags } from '@oclif/core';
import { humanOutputOf, manageFlags as doorFlags } from '../flags.js';

/** `door status`. */
export class DoorStatus extends Command {
  static override summary = 'Show the MCP door: on or off, port, listening, last error (never the token).';
  static override description = 'Read-only: also answers while serve or the GUI has the village open (from the shelf file).';
  static override examples = ['<%= config.bin %> door status -d ./data', '<%= config.bin %> door status -d ./data --json'];
  static override flags = doorFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(DoorStatus);
    const { runDoorStatus } = await import('../manage/door.js');
    process.exitCode = await runDoorStatus({ dataDir: flags['data-dir'], json: flags.json }, humanOutputOf(flags));
  }
}

/** `door enable [--port N]`. */
export class DoorEnable extends Command {
  static override summary = 'Switch the MCP door on (a token is made the first time); serve and the GUI open it.';
  static override description = 'Writes {dataDir}/mcp_server.json (mode 0600, unknown keys kept). Refused (exit 4) while the village is open elsewhere.';
  static override examples = ['<%= config.bin %> door enable -d ./data', '<%= config.bin %> door enable -d ./data --port 39700'];
  static override flags = { ...doorFlags, port: Flags.integer({ min: 1, max: 65535, description: 'Listen on this port (default 39641).' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(DoorEnable);
    const { runDoorSwitch } = await import('../manage/door.js');
    process.exitCode = await runDoorSwitch(
      { dataDir: flags['data-dir'], json: flags.json, enabled: true, ...(flags.port === undefined ? {} : { port: flags.port }) },
      humanOutputOf(flags),
    );
  }
}

/** `door disable`. */
export class DoorDisable extends Command {
  static override summary = 'Switch the MCP door off (its token is kept).';
  static override description = 'Writes {dataDir}/mcp_server.json. Refused (exit 4) while the village is open elsewhere.';
  static override examples = ['<%= config.bin %> door disable -d ./data'];
  static override flags = doorFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(DoorDisable);
    const { runDoorSwitch } = await import('../manage/door.js');
    process.exitCode = await runDoorSwitch({ dataDir: flags['data-dir'], json: flags.json, enabled: false }, humanOutputOf(flags));
  }
}

/** `door token [--rotate]`. */
export class DoorToken extends Command {
  static override summary = 'Print the bearer token MCP clients send to the door; --rotate makes a new one.';
  static override description = 'The token goes to stdout only. After --rotate the old token stops working at the next start of serve or the GUI.';
  static override examples = ['<%= config.bin %> door token -d ./data', '<%= config.bin %> door token -d ./data --rotate'];
  static override flags = { ...doorFlags, rotate: Flags.boolean({ default: false, description: 'Make a new token first.' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(DoorToken);
    const { runDoorToken } = await import('../manage/door.js');
    process.exitCode = await runDoorToken({ dataDir: flags['data-dir'], json: flags.json, rotate: flags.rotate }, humanOutputOf(flags));
  }
}
