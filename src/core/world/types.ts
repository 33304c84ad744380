/**
 * world.json shapes as plain types (types only: importable in a worker without zod).
 * The zod schema in `schema.ts` is checked against these; keys are the original app's camelCase keys.
 */

export type Language = 'ja' | 'en';
export type Provider = 'open_ai_compat' | 'anthropic' | 'echo';
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
  /** null = detect from baseUrl (api.anthropic.com → anthropic, else open_ai_compat). */
  provider: Provider | null;
  /**
   * Set when world.json names a provider this build does not speak (e.g. the original's `gemini`): `provider`
   * is then null, the raw value is written back unchanged, and the LLM factory must refuse with LLM_CONFIG.
   */
  unsupportedProvider?: string;
  useTools: boolean;
  effort: Effort | null;
  requestTimeoutSecs: number;
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
