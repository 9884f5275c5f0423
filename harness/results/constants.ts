/**
 * The values the reporters use, beside the types of harness/results/types.ts: the kill points and
 * modes, the statements and their labels, the one rendering of a containment step, the error
 * bases. Each comes from a module that loads nothing at run time but constants and pure functions
 * (config/types.ts, config/statements.ts, the containment step, util/errors.ts), never from the
 * scenario loader (test/layering.test.ts).
 */
export { KILL_MODES, KILL_POINTS } from '../config/types.js';
export { STATEMENT_IDS, STATEMENT_LABELS } from '../config/statements.js';
export { describeStep } from '../containment/step.js';
export { InternalError, UserError } from '../util/errors.js';
export { requirementLine } from '../requirements/requirement.js';
