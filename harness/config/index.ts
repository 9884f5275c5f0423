// Public entry of harness/config: scenario files -> validated, normalised Scenario objects.
export type {
  CancelSpec,
  ChildSpec,
  LossMode,
  NetworkChoice,
  ProtocolChoice,
  SetupStep,
  KillMode,
  KillPoint,
  PointNeeds,
  Scenario,
  ScenarioExpect,
  ScenarioRemote,
  RouteMatchSpec,
  ScenarioTimeouts,
  SubjectSpec,
  TemplateContext,
  ToolCallSpec,
} from './types.js';
export {
  CANCEL_POINTS,
  CLIENT_LIVES_MODES,
  POINT_NEEDS,
  DEFAULT_KILL_MODES,
  DEFAULT_KILL_POINTS,
  KILL_MODES,
  KILL_POINTS,
  LOSS_MODES,
  NETWORK_CHOICES,
  PROTOCOL_CHOICES,
} from './types.js';
export { ConfigError, type ConfigProblem } from './errors.js';
export { EXTRA_EXPECT_KEYS, ScenarioSchema, type ScenarioInput } from './schema.js';
export { DEFAULT_CANCEL_DEADLINE_MS, DEFAULT_CHILD_ALIVE_MS, DEFAULT_EXIT_DEADLINE_MS, DEFAULT_SURVIVOR_GRACE_MS, DEFAULT_TIMEOUTS } from './normalise.js';
export { parseScenario, type ScenarioOptions } from './parse.js';
export { subjectScenario } from './subject-scenario.js';
export { findScenarioFiles } from './find-files.js';
export { loadScenarios } from './load.js';
export { envTemplateNames, renderScenario, renderTemplates, TEMPLATE_NAMES } from './templates.js';
export { defineScenario } from './define.js';
