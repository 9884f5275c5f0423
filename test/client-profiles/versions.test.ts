/**
 * `--client-profile <name>[@<version or range>]` (harness/client-profiles/versions.ts): the bare
 * name is the newest range read, a version picks its range, a label names one; anything else is
 * refused with what was expected, and a version outside every range read is unknown.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_PROFILES, PROFILE_NAMES, parseProfile, resolveProfile } from '../../harness/client-profiles/profiles.js';

const GEMINI_RANGES = 'the ranges read: >=0.52 (0.52 to 0.56), 0.27-0.51 (0.27 to 0.51)';

describe('client profile versions', () => {
  it('the bare name is the newest range read; a version in it, or its label, is the same ref', () => {
    for (const text of ['gemini-cli', 'gemini-cli@>=0.52', 'gemini-cli@0.52', 'gemini-cli@0.56.2', 'gemini-cli@0.53.1']) {
      const r = resolveProfile(text, CLIENT_PROFILES);
      expect(r.ok && [r.ref, r.behaviour.versions.label], text).toEqual(['gemini-cli', '>=0.52']);
    }
  });

  it('a version or a label of an older range names that range', () => {
    for (const text of ['gemini-cli@0.45', 'gemini-cli@0.27', 'gemini-cli@0.27.0', 'gemini-cli@0.51.9', 'gemini-cli@0.27-0.51']) {
      const r = resolveProfile(text, CLIENT_PROFILES);
      expect(r.ok && [r.ref, r.behaviour.stop.length], text).toEqual(['gemini-cli@0.27-0.51', 5]);
    }
    expect(parseProfile('gemini-cli')).toEqual({ ok: true, ref: 'gemini-cli' });
  });

  it('refuses what is not a version, a version no range holds, and an unknown client, naming what was expected', () => {
    expect(parseProfile('gemini-cli@9.x')).toEqual({
      ok: false,
      message: `gemini-cli@9.x: expected gemini-cli@<version> (a version such as 1.2 or 1.2.3) or gemini-cli@<range>; ${GEMINI_RANGES}`,
    });
    expect(parseProfile('gemini-cli@9.0')).toEqual({
      ok: false,
      message: `gemini-cli@9.0: no behaviour of gemini-cli was read for version 9.0; ${GEMINI_RANGES}`,
    });
    expect(parseProfile('gemini-cli@0.26')).toEqual({
      ok: false,
      message: `gemini-cli@0.26: no behaviour of gemini-cli was read for version 0.26; ${GEMINI_RANGES}`,
    });
    expect(parseProfile('gemini-cli@')).toMatchObject({ ok: false, message: expect.stringMatching(/^gemini-cli@: expected gemini-cli@<version>/) });
    // Windsurf has no profile: an unknown client.
    expect(parseProfile('windsurf@1.0')).toEqual({
      ok: false,
      message: `unknown client profile "windsurf"; expected one of ${PROFILE_NAMES.join(', ')}, each optionally @<version> or @<range>`,
    });
  });

  it('a client known by what was read, not by version, takes its label only', () => {
    expect(parseProfile('codex@newest-read')).toEqual({ ok: true, ref: 'codex' });
    expect(parseProfile('codex@drop')).toEqual({ ok: true, ref: 'codex@drop' });
    expect(parseProfile('codex@0.40')).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^codex@0\.40: no behaviour of codex was read for version 0\.40; the ranges read: newest-read \(known by what was read: .*\), drop \(known by what was read: /,
      ),
    });
  });
});
