/** Servers in containers: recognise the engine, label, attribute, judge, contain, sweep. */
export { parseEngineCommand, parseRunCommand, isEngineRun, engineOf, type Engine, type EngineCommand, type RunCommand } from './engine-cli.js';
export { labelCommand, labelSubject, labelArgv, labelShellScript, RUN_LABEL, type LabelChange, type LabelOutcome } from './label.js';
export { EngineClient, parseEvent, parseInspect, type EngineEvent, type Inspected } from './engine.js';
export { attribute, sameImage, type Attribution, type CliSighting } from './attribute.js';
export { containContainers } from './contain.js';
export { clearEngineMark, sweepStaleContainers, sweepStaleContainerRows, type StaleContainer } from './stale.js';
export type { AmbiguousContainer, CliProcess, ContainerContainment, ContainerEvidenceEvent, ContainerRow } from './types.js';
