/** defineCheck names the id once: it puts it on every outcome, and gives a check without a matcher of its own `toPass<Id>`. */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../harness/checks/all-checks.js';
import { defineCheck } from '../../harness/checks/types.js';
import { practice } from '../../harness/requirements/requirement.js';
import { passingDrill } from './evidence-builder.js';

describe('defineCheck', () => {
  const madeUp = defineCheck({
    id: 'made-up-check',
    requirement: practice('made-up', 'A made-up requirement.', 'a test needs one'),
    applies: () => true,
    run: () => ({ verdict: 'pass', summary: 'fine', data: { seen: 1 } }),
  });

  it('puts the id on the outcome of run', () => {
    expect(madeUp.run(passingDrill().build())).toEqual({ id: 'made-up-check', verdict: 'pass', summary: 'fine', data: { seen: 1 } });
  });

  it('gives a check that names no matcher toPass<Id>, and keeps the ones named', () => {
    expect(madeUp.matcher).toEqual({ name: 'toPassMadeUpCheck', expects: 'pass made-up-check' });
    const names = CHECKS.map((check) => check.matcher.name);
    expect(new Set(names).size).toBe(CHECKS.length);
    expect(names).toContain('toExitOnEof');
  });
});
