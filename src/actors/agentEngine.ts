/**
 * Everything an agent worker needs for its first turn (engine, backends, tools, budget view), behind one module so
 * the worker loads it with one dynamic import at the first delivery, and the build bundles it as one lazy file.
 */
export * as budget from '../core/budget/budgetPool.js';
export * as factory from '../core/llm/factory.js';
export * as secrets from '../core/secrets/secretStore.js';
export * as builtins from '../core/tools/builtins.js';
export * as external from '../core/tools/externalTool.js';
export * as jev from '../core/jev/jevDeps.js';
export * as engine from '../core/turn/turnEngine.js';
