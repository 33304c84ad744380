/**
 * The `jsonSchema` expectation's validator: Ajv (the JSON Schema library the MCP SDK already brings), draft-07 and
 * 2019-09 keywords as Ajv's default class reads them. A schema Ajv cannot compile is a failed verdict that says so,
 * never a crash of the run.
 */
import { Ajv } from 'ajv';
import type { JsonSchemaCheck } from '../../core/evals/judgeRepeat.js';

/** A validator with its own Ajv instance (schemas are compiled per call; eval runs are small). */
export function ajvSchemaCheck(): JsonSchemaCheck {
  const ajv = new Ajv({ allErrors: false, strict: false });
  return (schema, value) => {
    let validate;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      return `the schema does not compile (${error instanceof Error ? error.message : String(error)})`;
    }
    if (validate(value)) return null;
    const first = validate.errors?.[0];
    return first === undefined ? 'the JSON does not validate' : `${first.instancePath === '' ? 'the JSON' : first.instancePath} ${first.message ?? 'does not validate'}`;
  };
}
