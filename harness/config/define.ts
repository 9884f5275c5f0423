import type { ScenarioInput } from './schema.js';

/** Gives a scenario written in TypeScript the file shape's types (as vitest's `defineConfig`); validated at load. */
export function defineScenario<T extends ScenarioInput>(s: T): T {
  return s;
}
