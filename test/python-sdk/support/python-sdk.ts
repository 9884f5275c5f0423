/**
 * The interpreter the Python SDK group drills with: CRASH_DRILL_PYTHON_SDK (a python with mcp
 * 2.3.0 and FastMCP 4.0.10), else `<repo>/.venv-pysdk/bin/python` (npm test makes that venv: test/prepare.sh).
 * Without one, every test of a file that calls `pythonSdkSuite()` is skipped and the reason is
 * printed once, as the container group does; with CRASH_DRILL_REQUIRE_PYTHON_SDK=1 (.ci/run sets
 * it after installing the packages) a missing interpreter fails instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../harness/util/paths.js';
import { missingPrerequisite } from '../../support/prerequisite.js';

export const MCP_VERSION = '2.3.0';
export const FASTMCP_VERSION = '4.0.10';
const INSTALL = `python3 -m venv .venv-pysdk && .venv-pysdk/bin/pip install mcp==${MCP_VERSION} fastmcp==${FASTMCP_VERSION}`;

export type PythonSdk = { python: string; skip: null } | { python: null; skip: string };

/** The interpreter, or why there is none. Reads the two versions without importing the packages. */
export function findPythonSdk(env: NodeJS.ProcessEnv = process.env): PythonSdk {
  const named = env.CRASH_DRILL_PYTHON_SDK;
  const python = named || join(packageRoot(), '.venv-pysdk/bin/python');
  const where = named ? `CRASH_DRILL_PYTHON_SDK=${named}` : python;
  if (!existsSync(python)) return { python: null, skip: `no interpreter at ${where} (set CRASH_DRILL_PYTHON_SDK, or run: ${INSTALL})` };
  const code = 'from importlib.metadata import version as v\nprint(v("mcp"), v("fastmcp"))';
  const probe = spawnSync(python, ['-c', code], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0)
    return { python: null, skip: `${where} has no mcp or fastmcp: ${(probe.stderr || probe.error?.message || '').trim().split('\n').pop()}` };
  const [mcp, fastmcp] = probe.stdout.trim().split(' ');
  if (mcp !== MCP_VERSION || fastmcp !== FASTMCP_VERSION)
    return { python: null, skip: `${where} has mcp ${mcp} and fastmcp ${fastmcp}, not ${MCP_VERSION} and ${FASTMCP_VERSION}` };
  return { python, skip: null };
}

const required = process.env.CRASH_DRILL_REQUIRE_PYTHON_SDK === '1';

/** Call at the top of a test file: the interpreter, or null after printing why the file skips. */
export function pythonSdkSuite(file: string): string | null {
  const found = findPythonSdk();
  if (found.skip === null) return found.python;
  missingPrerequisite(file, found.skip, {
    test: 'has an interpreter with the Python SDK and FastMCP',
    requiredBy: 'CRASH_DRILL_REQUIRE_PYTHON_SDK=1',
    required,
  });
  return null;
}
