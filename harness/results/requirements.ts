/** Every check and statement with the requirement it tests (harness/requirements/), for `crash-drill requirements` and the reports. */
import { CHECKS } from '../checks/all-checks.js';
import { STATEMENT_IDS, STATEMENT_REQUIREMENTS } from '../config/index.js';
import type { Requirement } from '../requirements/requirement.js';

export { requirementLine } from '../requirements/requirement.js';

export interface RequirementsList {
  checks: Array<{ id: string; requirement: Requirement }>;
  statements: Array<{ id: string; requirement: Requirement }>;
}

export function requirementsList(): RequirementsList {
  return {
    checks: CHECKS.map((check) => ({ id: check.id, requirement: check.requirement })),
    statements: STATEMENT_IDS.map((id) => ({ id, requirement: STATEMENT_REQUIREMENTS[id] })),
  };
}
