/**
 * zod 4 schema of world.json (SPEC §3.1, reference core.md §1.2–§1.6). Main thread only: agent workers receive
 * an already-checked `World` and never load zod.
 *
 * Leniency follows the original where it was lenient, and is a little kinder where a single odd enum value
 * would otherwise make the whole village read-only:
 * - `credential`: legacy `"none"` reads as `unset`; any other unknown value also reads as `unset` (safe: no secret
 *   is sent) and the normalizer notes it.
 * - `provider`: an unknown string (a provider this build does not speak) reads as `provider: null` plus
 *   `unsupportedProvider: <raw>`; the raw value is written back unchanged, preflight reports it and the LLM
 *   factory refuses the template (LLM_CONFIG) instead of silently auto-detecting.
 * - `effort`, role `color`, `language`: unknown → null (language null = undetermined, resolved by the normalizer).
 * Wrong *types* (a string where a number belongs, a missing `id`) are schema errors: the file is read as default
 * and never overwritten. Unknown keys are stripped here; the config store keeps the raw object to write them back.
 */
import { z } from 'zod';
import { CREDENTIAL_SOURCES, EFFORTS, isOneOf, KNOWN_PROVIDERS, LANGUAGES, ROLE_COLORS } from './enums.js';
import { DEFAULT_ASK_TIMEOUT_SECS, DEFAULT_BASE_URL, DEFAULT_MAX_HOPS } from './worldDefaults.js';
import type { AgentRole, AgentSpec, Group, Language, ModelTemplate, Position, World } from './types.js';

/** A string enum that maps unknown strings to null instead of failing (non-strings still fail). */
function lenientEnum<const T extends readonly string[]>(values: T) {
  return z
    .string()
    .nullable()
    .optional()
    .transform((value): T[number] | null => (isOneOf(values, value) ? value : null));
}

const uint = z.number().int().nonnegative();
const stringList = z.array(z.string());

/** One `agents[]` entry: the original's 13 keys plus groupId / hidden / planReview. */
export const agentSpecSchema = z.object({
  id: z.string(),
  name: z.string(),
  modelTemplateId: z.string(),
  ragSources: stringList.default([]),
  connectedAgents: stringList.default([]),
  order: uint.default(0),
  workDir: z.string().nullable().default(null),
  // u8 in the original.
  maxToolIterations: uint.max(255).nullable().default(null),
  enabledTools: stringList.nullable().default(null),
  hearsRoomLog: z.boolean().default(true),
  allowHandoff: z.boolean().default(true),
  batchStart: z.boolean().default(true),
  roleId: z.string().nullable().default(null),
  groupId: z.string().nullable().default(null),
  hidden: z.boolean().default(false),
  planReview: z.boolean().default(false),
});

const credentialSchema = z
  .string()
  .optional()
  .transform((value): ModelTemplate['credential'] => (isOneOf(CREDENTIAL_SOURCES, value) ? value : 'unset'));

const optionalPrice = z.number().nonnegative().nullable().default(null);

/** One `modelTemplates[]` entry (reference core.md §1.4); seconds for timeouts, USD per 1M tokens for prices. */
export const modelTemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    baseUrl: z.string().default(DEFAULT_BASE_URL),
    model: z.string(),
    contextLength: uint.default(128_000),
    temperature: z.number().nullable().default(null),
    maxOutputTokens: uint.default(8192),
    credential: credentialSchema,
    provider: z.string().nullable().default(null),
    useTools: z.boolean().default(true),
    effort: lenientEnum(EFFORTS),
    // Provider-side search and reasoning flags: each acts only with its own provider.
    googleSearch: z.boolean().default(false),
    xaiWebSearch: z.boolean().default(false),
    xaiXSearch: z.boolean().default(false),
    openaiWebSearch: z.boolean().default(false),
    openaiReasoningPro: z.boolean().default(false),
    metaWebSearch: z.boolean().default(false),
    // Added by this product: false = one JSON answer per call (for proxies that break server-sent events).
    stream: z.boolean().default(true),
    requestTimeoutSecs: uint.default(120),
    maxRetries: uint.default(3),
    // Only when the user set it (the backends default to 8 MiB), so a rewrite adds no key to villages.
    maxResponseBytes: uint.optional(),
    inputPerMtok: optionalPrice,
    outputPerMtok: optionalPrice,
    cacheReadPerMtok: optionalPrice,
    cacheWritePerMtok: optionalPrice,
    cacheWrite1hPerMtok: optionalPrice,
    pricingAsOf: z.string().nullable().default(null),
  })
  .transform(({ provider, ...rest }) => {
    if (provider === null || isOneOf(KNOWN_PROVIDERS, provider)) return { ...rest, provider };
    return { ...rest, provider: null, unsupportedProvider: provider };
  });

/** One `roles[]` entry; `defaults` are copied into an agent only when it is created. */
export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().default(''),
  color: lenientEnum(ROLE_COLORS),
  defaults: z
    .object({
      construct: z.string().default(''),
      modelTemplateId: z.string().nullable().default(null),
      enabledTools: stringList.nullable().default(null),
      maxToolIterations: uint.max(255).nullable().default(null),
    })
    .prefault({}),
});

/** One `groups[]` entry (added by this product; display and batch start only). */
export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  batchStart: z.boolean().default(true),
  order: uint.default(0),
});

/** A node position on the topology canvas, in canvas pixels. */
export const positionSchema = z.object({ x: z.number(), y: z.number() });

/** world.json as parsed, before normalization (language may still be undetermined = null). */
export const worldFileSchema = z.object({
  agents: z.array(agentSpecSchema).default([]),
  groups: z.array(groupSchema).default([]),
  modelTemplates: z.array(modelTemplateSchema).default([]),
  roles: z.array(roleSchema).default([]),
  topologyPositions: z.record(z.string(), positionSchema).default({}),
  // u64 effective tokens; 0 is normalized to null (no ceiling) with a note.
  tokenBudget: uint.nullable().default(null),
  language: lenientEnum(LANGUAGES),
  userName: z.string().nullable().default(null),
  reception: z.string().nullable().default(null),
  externalName: z.string().nullable().default(null),
  askTimeoutSecs: z.number().int().positive().default(DEFAULT_ASK_TIMEOUT_SECS),
  maxHops: z.number().int().positive().default(DEFAULT_MAX_HOPS),
});

/** Output of `worldFileSchema`: a `World` whose language may still be undetermined. */
export type ParsedWorld = z.output<typeof worldFileSchema>;

// Compile-time proof that the schema outputs fit the plain types workers use (SPEC §3.1, types.ts).
type Assignable<A, B> = [A] extends [B] ? true : false;
type Expect<T extends true> = T;
/** Compile-time only: fails to type-check when a schema output stops fitting its plain type. */
export type SchemaFitsTypes = [
  Expect<Assignable<z.output<typeof agentSpecSchema>, AgentSpec>>,
  Expect<Assignable<z.output<typeof modelTemplateSchema>, ModelTemplate>>,
  Expect<Assignable<z.output<typeof roleSchema>, AgentRole>>,
  Expect<Assignable<z.output<typeof groupSchema>, Group>>,
  Expect<Assignable<z.output<typeof positionSchema>, Position>>,
  Expect<Assignable<ParsedWorld, Omit<World, 'language'> & { language: Language | null }>>,
];
