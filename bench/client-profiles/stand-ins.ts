/**
 * The client that stands in for each profile ref, for the ground truth (ground-truth.ts) and
 * `survey --verify` (survey-verify.ts): the SDKs' own transports where a client runs on one, else
 * a scripted stand-in written from the cited source (docs/client-profiles.md).
 */
import { fileURLToPath } from 'node:url';
import type { ProfileRef } from '../../harness/client-profiles/profiles.js';
import type { Installed } from './setup.js';

const SOURCE = fileURLToPath(new URL('../../../bench/client-profiles/', import.meta.url));
const DIST = fileURLToPath(new URL('../../', import.meta.url));
const SDK_1322 = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/sdk', import.meta.url));

/** The subreaper holder every trial runs its client under. */
export const HOLDER = ['python3', `${SOURCE}holder.py`];

export function standInClient(profile: ProfileRef, installed: Installed): string[] {
  const node = (flavour: string, sdk: string) => [process.execPath, `${DIST}bench/client-profiles/node-sdk-client.js`, flavour, sdk];
  if (profile === 'ts-sdk') return node(profile, SDK_1322);
  // Gemini CLI's package-lock: SDK 1.23.0 from v0.52.0, 1.26.0 at v0.51.0 (1.25.3 from v0.27.0).
  if (profile === 'gemini-cli') return node(profile, installed.sdk123);
  if (profile === 'gemini-cli@0.27-0.51') return node('gemini-cli', installed.sdk126);
  if (profile === 'cline') return node(profile, installed.sdks['1.30.0']);
  if (profile === 'roo-code') return node(profile, installed.sdks['1.12.0']);
  if (profile === 'continue' || profile === 'opencode') return node(profile, installed.sdks['1.29.0']);
  if (profile === 'cline-cli') return [process.execPath, `${DIST}bench/client-profiles/node-raw-client.js`];
  if (profile === 'python-sdk') return [installed.python, `${SOURCE}python_sdk_client.py`];
  // The scripted stand-ins name a behaviour by its ref (codex@drop, vscode@ce34ccc3).
  return ['python3', `${SOURCE}scripted_client.py`, profile];
}
