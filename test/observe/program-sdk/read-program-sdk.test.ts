/**
 * The one reader that picks by what the program is: a Node script, a Python interpreter, a
 * java command line, a native file; and its cache, per (device, inode, mtime, size): a binary
 * drilled again is not read again, a binary replaced in between is.
 */
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programSdkCacheSize, readProgramSdk } from '../../../harness/observe/program-sdk/read-program-sdk.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { tempDir } from '../../support/temp-dir.js';
import { depsJson, dotnetBundle } from './support/synthetic-programs.js';

const ROOT = packageRoot();

describe('the program SDK reader', () => {
  it('picks the reader by the program: node, java, a native file, and says what it cannot tell', () => {
    const script = join(ROOT, 'dist/fake-servers/ignores-eof.js');
    expect(readProgramSdk({ argv: ['node', script], exe: process.execPath, cwd: '/' })).toMatchObject({
      kind: 'node',
      sdks: [{ name: '@modelcontextprotocol/sdk', version: '1.32.2' }],
      reason: null,
    });
    expect(readProgramSdk({ argv: ['node', '-e', 'x'], exe: process.execPath, cwd: '/' })).toMatchObject({
      kind: 'node',
      sdks: [],
      reason: expect.stringMatching(/^no MCP SDK package found near/),
    });
    expect(readProgramSdk({ argv: ['java', '-version'], exe: '/usr/bin/java', cwd: '/' })).toEqual({
      kind: 'jvm',
      runtimeVersion: null,
      sdks: [],
      reason: 'no main class, -jar or -m in the command line',
    });
    expect(readProgramSdk({ argv: ['sh', '-c', 'x'], exe: '/bin/sh', cwd: '/' }).reason).toMatch(/^\/bin\/sh holds no Go build information/);
    expect(readProgramSdk({ argv: ['server'], exe: null, cwd: '/' })).toEqual({
      kind: 'other',
      runtimeVersion: null,
      sdks: [],
      reason: "the program's file is not known (server)",
    });
  });

  it('reads a native program once per (device, inode, mtime, size), and again when it changed', () => {
    const dir = tempDir('crash-drill-program-sdk-');
    const file = join(dir, 'server');
    const bundle = (version: string) =>
      dotnetBundle([{ path: 'server.deps.json', type: 3, bytes: Buffer.from(depsJson('server', { ModelContextProtocol: version })) }]);
    writeFileSync(file, bundle('1.0.0'));
    const first = readProgramSdk({ argv: [file], exe: file, cwd: dir });
    expect(first.sdks.map((s) => s.version)).toEqual(['1.0.0']);
    const size = programSdkCacheSize();
    expect(readProgramSdk({ argv: [file], exe: file, cwd: dir })).toBe(first); // the kept result itself
    expect(programSdkCacheSize()).toBe(size);
    // Replaced by a new build (a new inode, another mtime): read again.
    rmSync(file);
    writeFileSync(file, bundle('1.1.0'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(readProgramSdk({ argv: [file], exe: file, cwd: dir }).sdks.map((s) => s.version)).toEqual(['1.1.0']);
  });
});
