/**
 * The words of every preflight finding, in Japanese and English. One function per code per language,
 * so the decision code never builds sentences and a translation cannot silently miss a code.
 * Texts name the agent / template / variable / schedule, and never contain a secret value.
 */
import type { Language } from '../world/types.js';
import type { KeyringAnswer } from '../secrets/keyringAnswers.js';
import { KEYRING_SERVICE } from '../secrets/keyringSecretStore.js';
import { quoteIdentifier } from '../world/identifiers.js';

/** A finding's two sentences. */
export interface FindingText {
  message: string;
  fix: string;
}

/** An agent as a finding names it. */
export interface AgentRef {
  id: string;
  name: string;
}

/** How a missing secret should be provided: an env variable (`--secrets env`) or the keyring. */
export type SecretHint = { store: 'env'; envName: string } | { store: 'keyring' };

/** The sentence builders, one per finding code (SECRET_MISSING has two shapes: keyring claim vs. unset). */
export interface FindingTexts {
  planReviewOn(agent: AgentRef): FindingText;
  secretMissing(templateId: string, agents: AgentRef[], hint: SecretHint): FindingText;
  credentialUnset(templateId: string, agents: AgentRef[], hint: SecretHint): FindingText;
  /** `answers` = what each keyring store said about `key` (the library's pick read twice, then each store by name). */
  keyringInconsistent(key: string, answers: readonly KeyringAnswer[]): FindingText;
  modelTemplateMissing(agent: AgentRef, templateId: string): FindingText;
  /** `agents` = the agents on the template (started ones for a reject); `known` = the providers this build speaks. */
  providerUnsupported(templateId: string, provider: string, agents: AgentRef[], known: readonly string[]): FindingText;
  receptionUnset(): FindingText;
  receptionMissing(receptionId: string): FindingText;
  receptionTargetsOutside(reception: AgentRef, outside: string[]): FindingText;
  scheduleTargetStopped(scheduleId: string, target: AgentRef): FindingText;
  runApprovalPending(agents: AgentRef[]): FindingText;
  probeUnapproved(scheduleId: string, command: string): FindingText;
  jevTokenMissing(hint: SecretHint, reasons: { judges: AgentRef[]; compression: boolean }): FindingText;
  mcpCommandNotFound(server: string, agentId: string | null, command: string): FindingText;
  /** `envStore` = the run reads secrets from FUSEFORKS_SECRET_* (the login is carried as a variable). */
  mcpAuthRequired(server: string, agentId: string | null, envStore: boolean): FindingText;
  sessionStoreCorrupt(file: string, reason: string): FindingText;
  /** `pid` = the holder, null when the system does not show it; `mode` = the command being checked. */
  villageHeld(pid: number | null, mode: 'ask' | 'serve'): FindingText;
  configBroken(file: string, reason: string, fix: string | undefined): FindingText;
  /** `unknown` = names in the agent's enabledTools this build does not have; `known` = the names it does. */
  enabledToolUnknown(agent: AgentRef, unknown: string[], known: readonly string[]): FindingText;
  /** Agents with run that would have every command refused: the sandbox cannot be had (`detail`, `fix`). */
  sandboxUnavailable(agents: AgentRef[], detail: string, fix: string): FindingText;
  /** Agents with run whose run.json turns the sandbox off. */
  sandboxOff(agents: AgentRef[]): FindingText;
  /** `id` = the unsafe id as written (shown quoted and escaped); `reception` = it is the reception. */
  unsafeIdentifier(id: string, name: string, reception: boolean): FindingText;
  /** A prompt file of `bytes` over the per-file cap: only its head is sent. */
  promptFileOverCap(path: string, bytes: number, cap: number): FindingText;
  /** The agent's system prompt (estimated from below) over the cap of its template's contextLength. */
  systemPromptOverCap(agent: AgentRef, bytes: number, cap: number, templateId: string, contextLength: number): FindingText;
  /** More tools than one request offers; the cut-off rule decides which go. */
  toolsOverCap(agent: AgentRef, tools: number, cap: number): FindingText;
}

const STORE_NAMES: Record<KeyringAnswer['store'], { ja: string; en: string }> = {
  keyring: { ja: 'このプロセスのキーリング', en: "this process's keyring" },
  'secret-service': { ja: 'Secret Service', en: 'the Secret Service' },
  'kernel-keyring': { ja: 'カーネルのキーリング', en: 'the kernel keyring' },
};
const STATE_NAMES: Record<KeyringAnswer['state'], { ja: string; en: string }> = {
  stored: { ja: 'あり', en: 'stored' },
  missing: { ja: 'なし', en: 'missing' },
  error: { ja: '読めない', en: 'unreadable' },
  unavailable: { ja: '使えない', en: 'not reachable' },
};

/** "this process's keyring: stored, then missing; the Secret Service: missing; …" — every store asked, in order. */
function answersText(answers: readonly KeyringAnswer[], lang: 'ja' | 'en'): string {
  const first = answers.find((a) => a.state === 'stored')?.value;
  const other = lang === 'ja' ? 'あり（別の値）' : 'stored, another value';
  const byStore = new Map<KeyringAnswer['store'], string[]>();
  for (const a of answers) byStore.set(a.store, [...(byStore.get(a.store) ?? []), a.state === 'stored' && a.value !== first ? other : STATE_NAMES[a.state][lang]]);
  return [...byStore]
    .map(([store, states]) => `${STORE_NAMES[store][lang]}: ${states.join(lang === 'ja' ? '→' : ', then ')}`)
    .join(lang === 'ja' ? '、' : '; ');
}

const ja = (a: AgentRef): string => (a.name && a.name !== a.id ? `${a.id}（${a.name}）` : a.id);
const en = (a: AgentRef): string => (a.name && a.name !== a.id ? `${a.id} (${a.name})` : a.id);

const JA: FindingTexts = {
  planReviewOn: (a) => ({
    message: `${ja(a)} は計画の確認（planReview）が有効です。GUI なしでは承認する人がいないため、plan の波が止まったままになります。`,
    fix: `GUI で ${ja(a)} の計画の確認を切るか、承認なしで進めてよいなら --bypass-plan-review を付けてください。`,
  }),
  secretMissing: (t, agents, h) => ({
    message: `テンプレート ${t}（${agents.map(ja).join('、')} が使用）の API キーが、選んだ置き場にありません。`,
    fix:
      h.store === 'env'
        ? `環境変数 ${h.envName} にキーを設定してから実行してください。`
        : `GUI のモデル設定で ${t} のキーを登録するか、--secrets env にして環境変数で渡してください。`,
  }),
  keyringInconsistent: (key, answers) => ({
    message: `OS のキーリングが鍵 ${key} について食い違った答えを返しました（${answersText(answers, 'ja')}）。Secret Service に届くプロセス（デスクトップ、GUI）と届かないプロセス（cron、ssh、コンテナ）とで、見える鍵が変わります。`,
    fix: `Secret Service が動いているセッションで printf %s "$KEY" | fuseforks-cli secrets set ${key} -d DIR を実行し直して（書いた鍵を読み直して確かめます）、カーネルのキーリングの写しを keyctl purge user "keyring:${key}@${KEYRING_SERVICE}" で消してください。GUI なしで動かすなら --secrets env で渡せます。`,
  }),
  credentialUnset: (t, agents, h) => ({
    message: `テンプレート ${t}（${agents.map(ja).join('、')} が使用）は認証情報が未設定（credential: unset）のため、LLM を呼べません。`,
    fix:
      h.store === 'env'
        ? `world.json の ${t} の credential を "keyring" にし、環境変数 ${h.envName} にキーを設定してください（キー不要の相手なら "not_required"）。`
        : `GUI のモデル設定で ${t} のキーを登録してください（キー不要の相手なら credential を "not_required" に）。`,
  }),
  modelTemplateMissing: (a, t) => ({
    message: `${ja(a)} が指すモデルテンプレート ${t} が村にありません。`,
    fix: `GUI で ${ja(a)} に存在するテンプレートを選び直すか、テンプレート ${t} を作ってください。`,
  }),
  providerUnsupported: (t, p, agents, known) => ({
    message: `テンプレート ${t}${agents.length > 0 ? `（${agents.map(ja).join('、')} が使用）` : ''}のプロバイダ "${p}" は、このビルドでは話せません。この相手への呼び出しはすべて LLM_CONFIG で失敗します。`,
    fix: `world.json の ${t} の provider を ${known.join(' / ')} のどれかに直すか（GUI のモデル設定でも選べます）、その個体に別のテンプレートを選んでください。`,
  }),
  receptionUnset: () => ({
    message: '窓口（reception）が設定されていないため、外からの依頼を受け取れません。',
    fix: 'GUI で窓口にする個体を選ぶか、world.json の reception に個体の id を書いてください。',
  }),
  receptionMissing: (r) => ({
    message: `窓口に指定された ${r} は村にいません（削除済み）。`,
    fix: 'GUI で窓口を選び直すか、world.json の reception を存在する個体の id にしてください。',
  }),
  receptionTargetsOutside: (r, outside) => ({
    message: `窓口 ${ja(r)} の接続先 ${outside.join('、')} は起動しません。そこへの委譲は NOT_RUNNING で返り、窓口が自分で答えます。`,
    fix: `委譲させたいなら --start に ${outside.join(',')} を加えてください（今のままでよければ対応は不要です）。`,
  }),
  scheduleTargetStopped: (s, t) => ({
    message: `予定 ${s} の宛先 ${ja(t)} は起動しないため、この予定は停止中として飛ばされます。`,
    fix: `この予定を動かすなら --start に ${t.id} を加えてください。不要なら GUI で予定を無効にしてください。`,
  }),
  runApprovalPending: (agents) => ({
    message: `${agents.map(ja).join('、')} は run を使えますが、承認モードが required です。未承認のコマンドは断られ、承認待ちに積まれても誰も承認しません。`,
    fix: 'GUI で run.json の許可リストを整えるか、--run-approval auto-approve / no-approval を選んでください。',
  }),
  probeUnapproved: (s, c) => ({
    message: `予定 ${s} の前判定コマンド ${c} はこの端末で承認されていないため、発火しても依頼は送られません。`,
    fix: 'GUI でこの予定の前判定を承認し、できた棚の probe_approvals.json をこの --data-dir に置いてください。',
  }),
  jevTokenMissing: (h, r) => ({
    message: `${jevReasonJa(r)}が設定されていますが、Jev のトークン（jev_api_token）がありません。判断役も圧縮も無効のまま起動します。`,
    fix:
      h.store === 'env'
        ? `環境変数 ${h.envName} にトークンを設定してください。`
        : 'GUI の Jev 設定でトークンを登録するか、--secrets env にして環境変数で渡してください。',
  }),
  mcpCommandNotFound: (s, agent, c) => ({
    message: `MCP サーバー ${s}（${agent === null ? '共通の mcp.json' : `agents/${agent}/mcp.json`}）のコマンド ${c} が見つかりません。接続できず、そのツールは使えません。`,
    fix: `${c} をインストールして PATH に入れるか、絶対パスを直すか、そのサーバーを無効（enabled: false）にしてください。`,
  }),
  mcpAuthRequired: (s, agent, env) => ({
    message: `MCP サーバー ${s}（${agent === null ? '共通の mcp.json' : `agents/${agent}/mcp.json`}）は OAuth のログインが必要ですが、ログインが保存されていません。接続できず、そのツールは使えません。`,
    fix: env
      ? `キーリングのある場所で fuseforks-cli mcp login ${s} -d DIR を実行し、mcp status --secrets env が示す環境変数にその値を渡してください。`
      : `fuseforks-cli mcp login ${s} -d DIR を実行してください。`,
  }),
  sessionStoreCorrupt: (file, reason) => ({
    message: `会話の保存先 ${file} が壊れています（${reason}）。このまま動かすと会話は保存されません。ファイルはそのまま残します。`,
    fix: `この村を使っているプロセスをすべて止め、${file}（と隣の sessions.mdb-lock）を別の場所へ移してから起動し直してください。新しい保存先が作られます。古い会話を取り出したい場合は移したファイルを残してください。`,
  }),
  villageHeld: (pid, mode) => ({
    message: `この村はいま別のプロセス${pid === null ? '' : `（pid ${pid}）`}が開いています。${mode === 'serve' ? 'serve はこのままでは起動できません（終了コード 4）。' : 'ask はそのプロセスの MCP ドアが開いていればドア経由で届き、閉じていれば終了コード 4 で終わります。'}`,
    fix: mode === 'serve' ? 'そのプロセス（serve か GUI）を止めてから起動してください。' : 'ドア経由で届けるには、そのプロセスを止めて fuseforks-cli door enable でドアを開け、serve を起動し直してください。',
  }),
  configBroken: (file, reason, fix) => ({
    message: `${file}: ${reason}。直るまでこの設定は使われません。ファイルは上書きしません。`,
    fix: fix ?? `${file} を手で（または GUI で）読める形に直してから、もう一度 check を実行してください。`,
  }),
  sandboxUnavailable: (agents, detail, fix) => ({
    message: `${agents.map(ja).join('、')} は run を使えますが、コマンドを閉じ込めるサンドボックスがこの端末では使えません（${detail}）。サンドボックスなしには実行しないため、すべてのコマンドが SANDBOX_UNAVAILABLE で断られます。`,
    fix: `${fix}。どうしても閉じ込めずに動かすなら、その agent の run.json に "sandbox": false を書いてください（危険です）。`,
  }),
  sandboxOff: (agents) => ({
    message: `${agents.map(ja).join('、')} の run.json は "sandbox": false です。コマンドは起動したユーザーの全権限で動き、鍵・他の村・ネットワークに届きます。`,
    fix: 'run.json から "sandbox": false を消して、サンドボックスの中で動かしてください。',
  }),
  enabledToolUnknown: (a, unknown, known) => ({
    message: `${ja(a)} の enabledTools にこのビルドにないツール ${unknown.join('、')} があります。そのツールは使えません（ほかのツールはそのまま使えます）。`,
    fix: `GUI の設定か world.json で ${ja(a)} の enabledTools から ${unknown.join('、')} を外すか、綴りを直してください（使える名前: ${known.join(', ')}。MCP のツールは enabledTools に関係なく出ます）。`,
  }),
  unsafeIdentifier: (id, name, reception) => ({
    message: `world.json のエージェント ${quoteIdentifier(id)}（${plainName(name)}）の id は 1〜64 文字の A-Z a-z 0-9 _ - ではありません（UNSAFE_IDENTIFIER）。${reception ? '受付なので外からの依頼は受けられません。' : ''}このエージェントは起動せず、ファイルも書き換えません。`,
    fix: `world.json でこのエージェントの id を安全な名前（例: ${suggestedId(id)}）に変え、それを指す connectedAgents・reception・schedules.json の to も同じ名前に直してください。`,
  }),
  promptFileOverCap: (path, bytes, cap) => ({
    message: `${path} は ${bytes} バイトあり、プロンプトに入れる上限 ${cap} バイトを超えています。先頭だけが送られ、切ったところに印が付きます。`,
    fix: `${path} を ${cap} バイト以下に減らしてください（長い資料は作業フォルダに置いて、ツールで読ませてください）。`,
  }),
  systemPromptOverCap: (a, bytes, cap, templateId, contextLength) => ({
    message: `${ja(a)} のシステムプロンプトは少なくとも ${bytes} バイトになり、テンプレート ${templateId}（contextLength ${contextLength}）の上限 ${cap} バイトを超えます。後ろ（名簿・Memory）が切られて送られます。`,
    fix: `${ja(a)} の SKILL.md・Construct.md・Memory.md・村の掟や connectedAgents を減らすか、contextLength の大きいテンプレートを使ってください。`,
  }),
  toolsOverCap: (a, tools, cap) => ({
    message: `${ja(a)} には ${tools} 個のツールがあり、1 回に出せる上限 ${cap} 個を超えます。組み込みツール、plan、つながり順の transfer_to_*・ask_*、MCP（名前順）の順に ${cap} 個だけが出ます。`,
    fix: `${ja(a)} の connectedAgents を減らすか、MCP サーバーやツールを減らしてください。`,
  }),
};

function jevReasonJa(r: { judges: AgentRef[]; compression: boolean }): string {
  const parts: string[] = [];
  if (r.judges.length > 0) parts.push(`判断役（${r.judges.map(ja).join('、')}）`);
  if (r.compression) parts.push('ツール結果の圧縮');
  return parts.length > 0 ? parts.join('と') : 'Jev';
}

function jevReasonEn(r: { judges: AgentRef[]; compression: boolean }): string {
  const parts: string[] = [];
  if (r.judges.length > 0) parts.push(`a judge (for ${r.judges.map(en).join(', ')})`);
  if (r.compression) parts.push('tool-result compression');
  return parts.length > 0 ? parts.join(' and ') : 'Jev';
}

const EN: FindingTexts = {
  planReviewOn: (a) => ({
    message: `${en(a)} has plan review on. Without the GUI nobody can approve, so its plan waves would wait forever.`,
    fix: `Turn plan review off for ${en(a)} in the GUI, or pass --bypass-plan-review if its waves may go out unapproved.`,
  }),
  secretMissing: (t, agents, h) => ({
    message: `The API key of template ${t} (used by ${agents.map(en).join(', ')}) is not in the chosen secret store.`,
    fix:
      h.store === 'env'
        ? `Set the environment variable ${h.envName} to the key and run again.`
        : `Register the key for ${t} in the GUI's model settings, or use --secrets env and pass it as a variable.`,
  }),
  keyringInconsistent: (key, answers) => ({
    message: `The OS keyring answers differently about the key ${key} (${answersText(answers, 'en')}): processes that reach a Secret Service (a desktop session, the GUI) and processes that do not (cron, ssh, a container) see different keys.`,
    fix: `In a session where the Secret Service runs, store it again with printf %s "$KEY" | fuseforks-cli secrets set ${key} -d DIR (it reads the key back), and remove the kernel keyring's copy with keyctl purge user "keyring:${key}@${KEYRING_SERVICE}"; or run headless with --secrets env.`,
  }),
  credentialUnset: (t, agents, h) => ({
    message: `Template ${t} (used by ${agents.map(en).join(', ')}) has no credential configured (credential: unset), so its LLM calls would be refused.`,
    fix:
      h.store === 'env'
        ? `Set credential to "keyring" for ${t} in world.json and set ${h.envName} (or "not_required" if the endpoint needs no key).`
        : `Register a key for ${t} in the GUI's model settings (or set credential to "not_required" if the endpoint needs no key).`,
  }),
  modelTemplateMissing: (a, t) => ({
    message: `${en(a)} points at model template ${t}, which does not exist in this village.`,
    fix: `Pick an existing template for ${en(a)} in the GUI, or create template ${t}.`,
  }),
  providerUnsupported: (t, p, agents, known) => ({
    message: `Template ${t}${agents.length > 0 ? ` (used by ${agents.map(en).join(', ')})` : ''} names provider "${p}", which this build does not speak: every call on it would fail with LLM_CONFIG.`,
    fix: `Set provider of ${t} in world.json (or in the GUI's model settings) to one of ${known.join(', ')}, or pick another template for its agents.`,
  }),
  receptionUnset: () => ({
    message: 'No reception is set, so the village cannot take an outside request.',
    fix: "Choose a reception agent in the GUI, or write an agent id into world.json's reception.",
  }),
  receptionMissing: (r) => ({
    message: `The reception ${r} is not an agent of this village (it was deleted).`,
    fix: "Choose the reception again in the GUI, or set world.json's reception to an existing agent id.",
  }),
  receptionTargetsOutside: (r, outside) => ({
    message: `The reception ${en(r)} is tied to ${outside.join(', ')}, which will not be started. Delegating there returns NOT_RUNNING and the reception answers by itself.`,
    fix: `Add ${outside.join(',')} to --start if the reception should delegate (nothing to do if this is intended).`,
  }),
  scheduleTargetStopped: (s, t) => ({
    message: `Schedule ${s} targets ${en(t)}, which will not be started, so it will be skipped as "agent stopped".`,
    fix: `Add ${t.id} to --start to run this schedule, or disable the schedule in the GUI.`,
  }),
  runApprovalPending: (agents) => ({
    message: `${agents.map(en).join(', ')} can use run while run approval is "required": unapproved commands are refused and queued as pending, and nobody will approve them.`,
    fix: 'Complete the allow list in run.json from the GUI, or choose --run-approval auto-approve or no-approval.',
  }),
  probeUnapproved: (s, c) => ({
    message: `The pre-check command ${c} of schedule ${s} is not approved on this machine, so the schedule will fire without sending its request.`,
    fix: "Approve the schedule's pre-check in the GUI and put the resulting shelf file probe_approvals.json into this --data-dir.",
  }),
  jevTokenMissing: (h, r) => ({
    message: `${capitalize(jevReasonEn(r))} is configured but the Jev token (jev_api_token) is missing; judge and compression will stay inactive.`,
    fix:
      h.store === 'env'
        ? `Set the environment variable ${h.envName} to the token.`
        : "Register the token in the GUI's Jev settings, or use --secrets env and pass it as a variable.",
  }),
  mcpCommandNotFound: (s, agent, c) => ({
    message: `The command ${c} of MCP server ${s} (${agent === null ? 'shared mcp.json' : `agents/${agent}/mcp.json`}) was not found; it cannot connect and its tools will be missing.`,
    fix: `Install ${c} and put it on PATH, correct the absolute path, or disable the server (enabled: false).`,
  }),
  mcpAuthRequired: (s, agent, env) => ({
    message: `MCP server ${s} (${agent === null ? 'shared mcp.json' : `agents/${agent}/mcp.json`}) needs an OAuth login and none is stored; it cannot connect and its tools will be missing.`,
    fix: env
      ? `Run fuseforks-cli mcp login ${s} -d DIR where a keyring runs and pass the stored value in the variable mcp status --secrets env names.`
      : `Run fuseforks-cli mcp login ${s} -d DIR.`,
  }),
  sessionStoreCorrupt: (file, reason) => ({
    message: `The session store ${file} is damaged (${reason}). A run would go on WITHOUT saving conversations; the file is left exactly as it is.`,
    fix: `Stop every process using this village, move ${file} (and sessions.mdb-lock beside it) aside, and start again: a fresh store is created. Keep the moved file if you want to recover old conversations.`,
  }),
  villageHeld: (pid, mode) => ({
    message: `This village is open in another process${pid === null ? '' : ` (pid ${pid})`}. ${mode === 'serve' ? 'serve cannot start while it is (exit 4).' : 'ask goes through that process\'s MCP door when the door is open, and exits 4 when it is not.'}`,
    fix: mode === 'serve' ? 'Stop that process (a serve or the GUI) first.' : 'To ask through it, stop that process, switch its door on (fuseforks-cli door enable), and start serve again.',
  }),
  configBroken: (file, reason, fix) => ({
    message: `${file}: ${reason}. What it configures is not used until it is fixed; the file is never overwritten.`,
    fix: fix ?? `Fix ${file} by hand (or in the GUI) so it parses, then run check again.`,
  }),
  sandboxUnavailable: (agents, detail, fix) => ({
    message: `${agents.map(en).join(', ')} can use run, but the sandbox that confines every command cannot be had on this machine (${detail}). Commands never run without it, so every one would be refused with SANDBOX_UNAVAILABLE.`,
    fix: `${capitalize(fix)}. Only to run commands unconfined, write "sandbox": false into that agent's run.json (dangerous).`,
  }),
  sandboxOff: (agents) => ({
    message: `The run.json of ${agents.map(en).join(', ')} says "sandbox": false: commands run with the full rights of the user who started fuseforks and reach its keys, other villages and the network.`,
    fix: 'Remove "sandbox": false from run.json so commands run inside the sandbox.',
  }),
  enabledToolUnknown: (a, unknown, known) => ({
    message: `The enabledTools of ${en(a)} name ${unknown.join(', ')}, which this build does not have; ${unknown.length === 1 ? 'that tool is' : 'those tools are'} missing (the others work).`,
    fix: `Remove ${unknown.join(', ')} from the enabledTools of ${en(a)} (GUI settings or world.json) or correct the spelling. Known names: ${known.join(', ')}. MCP tools show regardless of enabledTools.`,
  }),
  unsafeIdentifier: (id, name, reception) => ({
    message: `The agent ${quoteIdentifier(id)} (${plainName(name)}) in world.json has an id that is not 1-64 characters of A-Z a-z 0-9 _ - (UNSAFE_IDENTIFIER).${reception ? ' It is the reception, so no outside request can be taken.' : ''} It is not started, and no file is rewritten.`,
    fix: `Change that agent's id in world.json to a safe one (e.g. ${suggestedId(id)}) and the connectedAgents, reception and schedules.json "to" naming it to the same id.`,
  }),
  promptFileOverCap: (path, bytes, cap) => ({
    message: `${path} is ${bytes} bytes, over the prompt file cap of ${cap} bytes: only its head is sent, ending with a marker where it was cut.`,
    fix: `Shorten ${path} to at most ${cap} bytes (put long material in the work folder and let a tool read it).`,
  }),
  systemPromptOverCap: (a, bytes, cap, templateId, contextLength) => ({
    message: `The system prompt of ${en(a)} comes to at least ${bytes} bytes, over the cap of ${cap} bytes for template ${templateId} (contextLength ${contextLength}): its tail (the roster, Memory) is cut.`,
    fix: `Shorten the SKILL.md, Construct.md, Memory.md or Ordinance.md of ${en(a)}, drop connectedAgents, or use a template with a larger contextLength.`,
  }),
  toolsOverCap: (a, tools, cap) => ({
    message: `${en(a)} has ${tools} tools, over the cap of ${cap} per request: built-in tools, then plan, then transfer_to_* and ask_* in tie order, then MCP tools by name, and only the first ${cap} are offered.`,
    fix: `Drop connectedAgents of ${en(a)}, or MCP servers or tools.`,
  }),
};

/** A display name with control, zero-width and bidi-override characters removed (other scripts kept). */
function plainName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '');
}

/** A safe id close to `id` for the fix: the allowed characters kept, the rest as _, at most 64 (never empty). */
function suggestedId(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^_+|_+$/g, '').slice(0, 64);
  return safe === '' ? 'agent_1' : safe;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The texts of a language (ja when the village language is undetermined). */
export function findingTexts(language: Language | null | undefined): FindingTexts {
  return language === 'en' ? EN : JA;
}
