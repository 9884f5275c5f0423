/** Build step: writes schema/scenario.schema.json from the zod schema (see config/json-schema.ts). */
import { writeScenarioJsonSchema } from '../config/json-schema.js';
import { packageRoot } from '../util/paths.js';

writeScenarioJsonSchema(packageRoot());
