import type { ScenarioInput } from './schema.js';

/**
 * An identity function that gives a scenario written in TypeScript the file shape's types
 * (vitest's `defineConfig(config) { return config }`); validation happens when it is loaded.
 */
export function defineScenario<T extends ScenarioInput>(s: T): T {
  return s;
}
