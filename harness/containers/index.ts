/** Servers in containers: recognise the engine, label, attribute, judge, contain, sweep. */
export { parseEngineCommand, parseRunCommand, isEngineRun, engineOf, type Engine, type EngineCommand, type RunCommand } from './engine-cli.js';
export { labelCommand, labelSubject, labelArgv, labelShellScript, RUN_LABEL, type LabelChange, type LabelOutcome } from './label.js';
export { EngineClient, parseEvent, parseInspect, type EngineEvent, type Inspected } from './engine.js';
export { attribute, sameImage, type Attribution, type CliSighting } from './attribute.js';
export { clearEngineMark, sweepStaleContainers, sweepStaleContainerRows, type StaleContainer } from './stale.js';
export type { AmbiguousContainer, CliProcess, ContainerEvidenceEvent, ContainerRow } from './types.js';
export { ContainerProcessWatch } from './inside.js';
export { markEngineUsed } from './stale.js';
