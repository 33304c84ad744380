/**
 * `run {command, args[]}`: runs one allowed program (never a shell) in the work folder. What may run is
 * `agents/{id}/run.json` (re-read at every call) combined with the run-approval mode:
 * - `no-approval`: run is refused entirely;
 * - `required`: allowed runs; unknown is refused and queued in `pending` for the user; denied is refused;
 * - `auto-approve`: unknown runs and its exact pattern is added to `allow`; denied is still refused.
 */
import type { Language } from '../world/types.js';
import type { AgentTool, ToolContext, ToolPresentation, ToolReply, ToolSpec } from './contract.js';
import { noWorkDirText, resolveInWorkDir } from './confinement.js';
import { consumeOnce } from './runApprovals.js';
import { decide, normalizeCommand, notePending, recordApproval } from './runPolicy.js';
import { readRunPolicy, updateRunPolicy } from './runPolicyFile.js';
import { lookPath, MAX_STDERR_CHARS, MAX_STDOUT_CHARS, newRunMark, runEnv, runProcess, type RunResult } from './runProcess.js';
import { RUN_MARK_VARIABLE } from './processTree.js';
import { dirname } from 'node:path';
import { sandboxUnavailableText } from '../sandbox/sandboxAvailability.js';
import { sandboxedSpawn } from '../sandbox/sandboxedCommand.js';
import type { RunPolicy } from './runPolicy.js';
import { capOutput, clip, pick, refuse } from './toolText.js';

/** Most args accepted in one call. */
export const MAX_RUN_ARGS = 256;

function brokenText(lang: Language, why: string): string {
  return pick(
    lang,
    `run.json が壊れています（${why}）。ユーザーに agents/…/run.json の修正を頼んでください。`,
    `run.json is broken (${why}); ask the user to fix agents/…/run.json.`,
  );
}

/** The model-facing result: header, then stdout and stderr cut to their caps. */
export function formatRunResult(resolved: string, result: RunResult, timeoutSecs: number, lang: Language): string {
  const exit = result.timedOut
    ? pick(lang, `タイムアウト（${timeoutSecs} 秒で停止）`, `timeout (killed after ${timeoutSecs} s)`)
    : result.aborted
      ? pick(lang, '中断（停止しました）', 'interrupted (killed)')
      : result.code !== null
        ? String(result.code)
        : pick(lang, `シグナル ${result.signal ?? '?'}`, `signal ${result.signal ?? '?'}`);
  const lines = [pick(lang, `実行: ${resolved}`, `run: ${resolved}`), pick(lang, `終了コード: ${exit}`, `exit: ${exit}`)];
  const section = (label: string, text: string, bytes: number, max: number): void => {
    if (bytes === 0) return;
    const more = text.length > max || bytes > Buffer.byteLength(text);
    lines.push(`${label}:`, clip(text, max) + (more ? pick(lang, `\n（${bytes} バイト中の先頭のみ）`, `\n(head only of ${bytes} bytes)`) : ''));
  };
  section('stdout', result.stdout, result.stdoutBytes, MAX_STDOUT_CHARS);
  section('stderr', result.stderr, result.stderrBytes, MAX_STDERR_CHARS);
  return capOutput(lines.join('\n'), lang);
}

/** The sandbox of one agent's commands, from its run.json. */
export function sandboxPolicyOf(policy: RunPolicy, writable: boolean): import('../sandbox/sandboxPlan.js').SandboxPolicy {
  const mb = 1024 * 1024;
  return { network: policy.network, memoryBytes: policy.limits.memoryMb * mb, cpuSecs: policy.limits.cpuSecs, fileBytes: policy.limits.fileMb * mb, writable };
}

/** The `run` tool. Shown only when listed in `enabledTools` (the registry's rule). */
export const runTool: AgentTool = {
  name: 'run',
  wantsReason: true,

  specFor(p: ToolPresentation): ToolSpec {
    const ja = p.language === 'ja';
    const read = readRunPolicy(p.workspaceDir, p.agentId);
    const allowed =
      read.policy.allow.length === 0
        ? pick(p.language, 'まだ許可されたコマンドはありません（頼むとユーザーへの承認待ちに入ります）。', 'Nothing is allowed yet (a request is queued for the user to approve).')
        : pick(p.language, `許可されたパターン: ${read.policy.allow.join(' | ')}`, `Allowed patterns: ${read.policy.allow.join(' | ')}`);
    return {
      name: 'run',
      description: pick(
        p.language,
        `作業フォルダでコマンドを1つ実行します（シェルは通しません。command はプログラム名だけ、引数は args 配列）。${allowed}`,
        `Run one program in the work folder (no shell: \`command\` is a bare program name, arguments go in \`args\`). ${allowed}`,
      ),
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: ja ? 'プログラム名（/ \\ : は不可）' : 'program name (no / \\ :)' },
          args: { type: 'array', items: { type: 'string' }, description: ja ? '引数の配列' : 'argument list' },
        },
        required: ['command'],
      },
    };
  },

  async call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply> {
    const lang = ctx.language;
    if (ctx.runApproval === 'no-approval') {
      return refuse(pick(lang, 'このエージェントではコマンド実行（run）が無効です。', 'Running commands (run) is disabled for this agent.'));
    }
    const rawCommand = args['command'];
    const rawArgs = args['args'] ?? [];
    if (typeof rawCommand !== 'string' || !Array.isArray(rawArgs) || !rawArgs.every((a) => typeof a === 'string') || rawArgs.length > MAX_RUN_ARGS) {
      return refuse(pick(lang, 'run: command は文字列、args は文字列の配列にしてください。', 'run: `command` must be a string and `args` an array of strings.'));
    }
    const argv = rawArgs as string[];
    const read = readRunPolicy(ctx.workspaceDir, ctx.agentId);
    const decision = decide(read.policy, rawCommand, argv);
    const command = normalizeCommand(rawCommand);
    ctx.diag.note('run decision', {
      agent: ctx.agentId,
      command: command ?? '-',
      args: argv.length,
      decision,
      allow: read.policy.allow.length,
      deny: read.policy.deny.length,
      pending: read.policy.pending.length,
      policy: read.state,
    });
    if (read.state === 'broken') ctx.diag.note('command policy broken', { agent: ctx.agentId }, 'warn');

    if (decision === 'malformed' || command === null) {
      return refuse(pick(lang, 'run: command はプログラム名だけにしてください（/ \\ : や空白は不可。引数は args へ）。', 'run: `command` must be a bare program name (no / \\ : or spaces; put arguments in `args`).'));
    }
    if (decision === 'denied') {
      return refuse(
        pick(
          lang,
          `run: ${command} はこの引数では拒否されています（ユーザーが却下したか、run.json の deny にあります）。もう一度頼まず、別の方法をとってください。`,
          `run: ${command} with these arguments is rejected (the user rejected it, or run.json denies it). Do not ask for it again; work another way.`,
        ),
      );
    }
    if (decision === 'allowedOnce') {
      // Spend the grant before running, so a second call of the same line is a new request.
      let spent = false;
      const update = await updateRunPolicy(ctx.workspaceDir, ctx.agentId, (p) => {
        const next = consumeOnce(p, command, argv);
        spent = next.once.length < p.once.length;
        return next;
      });
      if (!update.written) return refuse(brokenText(lang, update.broken));
      if (!spent) return refuse(pick(lang, `run: ${command} の一回限りの承認は使用済みです。`, `run: the one-time approval of ${command} was already used.`));
    }
    if (decision === 'unknown') {
      if (read.state === 'broken') return refuse(brokenText(lang, read.broken ?? ''));
      if (ctx.runApproval === 'required') {
        const context = { cwd: ctx.workDir, reason: ctx.reason?.kind === 'written' ? ctx.reason.text : null };
        const update = await updateRunPolicy(ctx.workspaceDir, ctx.agentId, (p) => notePending(p, command, argv, Date.now(), context));
        if (!update.written) return refuse(brokenText(lang, update.broken));
        return refuse(
          pick(
            lang,
            `run: ${command} はまだ許可されていません。ユーザーへの承認依頼として記録しました。承認されるまで待つか、別の方法をとってください。`,
            `run: ${command} is not allowed yet. The request is recorded for the user to approve; wait for approval or work another way.`,
          ),
        );
      }
      const update = await updateRunPolicy(ctx.workspaceDir, ctx.agentId, (p) => recordApproval(p, command, argv));
      if (!update.written) return refuse(brokenText(lang, update.broken));
    }

    if (ctx.workDir === null) return refuse(noWorkDirText(lang));
    const cwd = await resolveInWorkDir(ctx.workDir, '', lang);
    if (!cwd.ok) return refuse(cwd.refusal);
    const resolved = lookPath(command, runEnv().PATH);
    if (resolved === null) {
      return refuse(pick(lang, `run: ${command} が PATH に見つかりません。`, `run: ${command} was not found on PATH.`));
    }
    let result: RunResult;
    if (read.policy.sandbox) {
      const mark = newRunMark();
      const spawn = sandboxedSpawn({
        policy: sandboxPolicyOf(read.policy, true),
        workDir: cwd.path,
        dataDir: dirname(ctx.workspaceDir),
        command,
        args: argv,
        extraEnv: { [RUN_MARK_VARIABLE]: mark },
      });
      if (!spawn.ok) {
        ctx.diag.note('run sandbox unavailable', { agent: ctx.agentId, reason: spawn.missing.reason }, 'warn');
        return refuse(sandboxUnavailableText(spawn.missing));
      }
      result = await runProcess(spawn.file, spawn.args, spawn.cwd ?? cwd.path, read.policy.timeoutSecs * 1000, ctx.signal, { env: spawn.env, mark });
    } else {
      result = await runProcess(resolved, argv, cwd.path, read.policy.timeoutSecs * 1000, ctx.signal);
    }
    ctx.diag.note('run', {
      sandbox: read.policy.sandbox,
      agent: ctx.agentId,
      command,
      args: argv.length,
      exit: result.code,
      timed_out: result.timedOut,
      aborted: result.aborted,
      stdout_bytes: result.stdoutBytes,
      stderr_bytes: result.stderrBytes,
    });
    const body = formatRunResult(resolved, result, read.policy.timeoutSecs, lang);
    // A non-zero exit is the program's answer (grep finds nothing → 1); only a cut run is a failed call.
    return result.code !== null && !result.timedOut && !result.aborted ? body : { body, ok: false };
  },
};
