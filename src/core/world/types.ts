/**
 * world.json shapes as plain types (types only: importable in a worker without zod).
 * The zod schema in `schema.ts` is checked against these; keys are the original app's camelCase keys.
 */

export type Language = 'ja' | 'en';
/** The wires this build speaks (the original's six plus the offline `echo`). */
export type Provider =
  | 'open_ai_compat'
  | 'anthropic'
  | 'gemini'
  | 'xai_responses'
  | 'open_ai_responses'
  | 'meta_responses'
  | 'echo';
export type CredentialSource = 'unset' | 'not_required' | 'keyring';
export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export type RoleColor = 'red' | 'orange' | 'amber' | 'green' | 'teal' | 'blue' | 'violet' | 'pink';

export interface AgentSpec {
  id: string;
  name: string;
  modelTemplateId: string;
  ragSources: string[];
  connectedAgents: string[];
  order: number;
  workDir: string | null;
  maxToolIterations: number | null;
  enabledTools: string[] | null;
  hearsRoomLog: boolean;
  allowHandoff: boolean;
  batchStart: boolean;
  roleId: string | null;
  /** Added by this product. */
  groupId: string | null;
  hidden: boolean;
  planReview: boolean;
}

export interface ModelTemplate {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  contextLength: number;
  temperature: number | null;
  maxOutputTokens: number;
  credential: CredentialSource;
  /** null = detect from baseUrl (api.anthropic.com → anthropic, else open_ai_compat; never gemini or a Responses wire). */
  provider: Provider | null;
  /**
   * Set when world.json names a provider this build does not speak: `provider` is then null, the raw value is
   * written back unchanged, preflight reports PROVIDER_UNSUPPORTED and the LLM factory refuses with LLM_CONFIG.
   */
  unsupportedProvider?: string;
  /** false = no native tool calls (chat completions gets the first tool's JSON schema as an instruction instead). */
  useTools: boolean;
  effort: Effort | null;
  /** Google Search grounding; only with provider gemini. */
  googleSearch: boolean;
  /** Grok web search / X search; only with provider xai_responses. */
  xaiWebSearch: boolean;
  xaiXSearch: boolean;
  /** OpenAI web search and the Pro reasoning mode; only with provider open_ai_responses. */
  openaiWebSearch: boolean;
  openaiReasoningPro: boolean;
  /** Meta web search; only with provider meta_responses. */
  metaWebSearch: boolean;
  /** Added by this product: stream replies (SSE). false for proxies that break server-sent events. Default true. */
  stream: boolean;
  requestTimeoutSecs: number;
  /** Most bytes of one model answer read before LLM_RESPONSE_TOO_LARGE; absent = 8 MiB. */
  maxResponseBytes?: number;
  /** Attempts including the first. */
  maxRetries: number;
  inputPerMtok: number | null;
  outputPerMtok: number | null;
  cacheReadPerMtok: number | null;
  cacheWritePerMtok: number | null;
  cacheWrite1hPerMtok: number | null;
  pricingAsOf: string | null;
}

export interface RoleDefaults {
  construct: string;
  modelTemplateId: string | null;
  enabledTools: string[] | null;
  maxToolIterations: number | null;
}

export interface AgentRole {
  id: string;
  name: string;
  description: string;
  color: RoleColor | null;
  defaults: RoleDefaults;
}

export interface Group {
  id: string;
  name: string;
  batchStart: boolean;
  order: number;
}

export interface Position {
  x: number;
  y: number;
}

/** The normalized world, as the runtime sees it. */
export interface World {
  agents: AgentSpec[];
  groups: Group[];
  modelTemplates: ModelTemplate[];
  roles: AgentRole[];
  topologyPositions: Record<string, Position>;
  /** Effective tokens per causal root; null = no ceiling. */
  tokenBudget: number | null;
  language: Language;
  userName: string | null;
  reception: string | null;
  externalName: string | null;
  askTimeoutSecs: number;
  maxHops: number;
}
