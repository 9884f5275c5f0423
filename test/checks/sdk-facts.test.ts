/**
 * The SDK facts table (harness/checks/exit-on-eof/sdk-facts.ts) and docs/languages.md's "Servers in
 * Go, Rust, Java and C#" say the same: every SDK of another language has its row there, with each
 * issue the table cites; every fact names where it was read; go-sdk's in-flight fact and fix
 * follow the version read (v1.7.0 changed it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_FACTS, sdkFacts } from '../../harness/checks/exit-on-eof/sdk-facts.js';
import { packageRoot } from '../../harness/util/paths.js';

const PAGE = readFileSync(join(packageRoot(), 'docs/languages.md'), 'utf8');
const START = PAGE.indexOf('\n## Servers in Go, Rust, Java and C#\n');
/** The section, up to the next section of its level (its ### sub-sections included). */
const SECTION = START < 0 ? '' : PAGE.slice(START, PAGE.indexOf('\n## ', START + 1) < 0 ? undefined : PAGE.indexOf('\n## ', START + 1));
const ROW_NAMES: Record<string, string> = {
  'go-sdk': 'go-sdk',
  'mcp-go': 'mcp-go',
  rmcp: 'rmcp',
  'java-sdk': 'Java SDK',
  'kotlin-sdk': 'Kotlin SDK',
  'csharp-sdk': 'C# SDK',
};

describe('the SDK facts table', () => {
  it("has every SDK of another language in docs/languages.md's section, with every issue it cites", () => {
    expect(SECTION.length).toBeGreaterThan(1000);
    for (const [id, name] of Object.entries(ROW_NAMES)) {
      const row = sdkFacts(id as never);
      expect(SECTION, id).toContain(`| ${name} | `);
      for (const fact of [row.eof, row.inFlight, row.writeAfterDeath])
        if (fact?.issue) expect(SECTION, `${id}: ${fact.issue}`).toContain(fact.issue.replace(/ \(.*\)$/, ''));
    }
  });

  it('names where every fact was read', () => {
    for (const row of SDK_FACTS)
      for (const fact of [row.eof, row.inFlight, row.writeAfterDeath]) if (fact) expect(fact.source, `${row.id}: ${fact.text}`).toMatch(/\S+\/\S+/);
  });

  it("gives go-sdk's in-flight fact and fix for the version read", () => {
    expect(sdkFacts('go-sdk', 'v1.6.1').inFlight?.text).toMatch(/^not cancelled at EOF before v1\.7\.0/);
    expect(sdkFacts('go-sdk', 'v1.6.1').fix.inFlight).toMatch(/^upgrade go-sdk to v1\.7\.0 or later/);
    expect(sdkFacts('go-sdk', 'v1.8.0').inFlight?.text).toMatch(/^cancelled at EOF \(since v1\.7\.0\)/);
    expect(sdkFacts('go-sdk', 'v1.7.0-rc.1').inFlight?.text).toMatch(/^cancelled at EOF/);
    expect(sdkFacts('go-sdk', '(devel)')).toBe(sdkFacts('go-sdk'));
  });
});
