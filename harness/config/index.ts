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
export { EXTRA_EXPECT_KEYS, ProfileRefSchema, ScenarioSchema, type ScenarioInput } from './schema.js';
export { DEFAULT_CANCEL_DEADLINE_MS, DEFAULT_CHILD_ALIVE_MS, DEFAULT_EXIT_DEADLINE_MS, DEFAULT_SURVIVOR_GRACE_MS, DEFAULT_TIMEOUTS } from './normalise.js';
export { parseScenario, type ScenarioOptions } from './parse.js';
export { subjectScenario } from './subject-scenario.js';
export { findScenarioFiles } from './find-files.js';
export { loadScenarios } from './load.js';
export { envTemplateNames, renderScenario, renderTemplates, TEMPLATE_NAMES } from './templates.js';
export { defineScenario } from './define.js';
export { ACTIVITY_PHASES, type ActivityField, type ActivityPhase, type ActivitySpec, type RecordLimits } from './types.js';
export { DEFAULT_ACTIVITY } from './activity-schema.js';
export { DEFAULT_RECORD_LIMITS } from './normalise.js';
export { type DeclaredStatement, STATEMENT_IDS, STATEMENT_REQUIREMENTS, type StatementId } from './statements.js';
export { formatFieldPath } from './field-path.js';
export { problemsFromIssues } from './issues.js';
export { refuseUnrunnableSubjects } from './subject-command.js';
export { splitCommandLine, subjectsFromCommandLines } from './command-line.js';
export { suggestKey } from './suggest.js';
export { validateScenario } from './parse.js';
export { writeScenarioJsonSchema } from './json-schema.js';
export { type Catalog, type CatalogEntry, CatalogSchema, writeCatalogJsonSchema } from './survey-catalog.js';
