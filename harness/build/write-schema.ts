/** Build step: writes schema/scenario.schema.json and schema/survey-catalog.schema.json from their zod schemas (config/json-schema.ts, config/survey-catalog.ts). */
import { writeScenarioJsonSchema } from '../config/json-schema.js';
import { writeCatalogJsonSchema } from '../config/survey-catalog.js';
import { packageRoot } from '../util/paths.js';

writeScenarioJsonSchema(packageRoot());
writeCatalogJsonSchema(packageRoot());
