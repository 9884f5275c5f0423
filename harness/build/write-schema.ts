/** Build step: writes schema/scenario.schema.json and schema/survey-catalog.schema.json from their zod schemas (config/json-schema.ts, config/survey-catalog.ts). */
import { writeScenarioJsonSchema } from '../config/index.js';
import { writeCatalogJsonSchema } from '../config/index.js';
import { packageRoot } from '../util/paths.js';

writeScenarioJsonSchema(packageRoot());
writeCatalogJsonSchema(packageRoot());
