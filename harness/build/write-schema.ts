/** Build step: writes schema/scenario.schema.json from the zod schema (see config/json-schema.ts). */
import { writeScenarioJsonSchema } from '../config/index.js';
import { packageRoot } from '../util/paths.js';

writeScenarioJsonSchema(packageRoot());
