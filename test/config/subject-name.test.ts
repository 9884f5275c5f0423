/**
 * A server is named as its user knows it (harness/config/subject-name.ts): the package a launcher
 * runs, the installed package that owns a script or a program, a module or a main class, else the
 * program; never a value from the command line.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subjectName } from '../../harness/config/subject-name.js';
import { tempDir } from '../support/temp-dir.js';

const name = (line: string, cwd = '/') => {
  const [command, ...args] = line.split(' ');
  return subjectName(command!, args, cwd);
};

describe('subjectName', () => {
  it('names the package a launcher runs, with the version it pins', () => {
    expect(name('npx -y @modelcontextprotocol/server-memory@2026.8.31')).toEqual({ name: '@modelcontextprotocol/server-memory', version: '2026.8.31' });
    expect(name('npx -y @upstash/context7-mcp --api-key x')).toEqual({ name: '@upstash/context7-mcp' });
    expect(name('npx --yes mcp-remote http://127.0.0.1:9/sse')).toEqual({ name: 'mcp-remote' });
    expect(name('npm exec --package=@playwright/mcp@0.0.40 -- mcp-server-playwright')).toEqual({ name: '@playwright/mcp', version: '0.0.40' });
    expect(name('pnpm dlx chrome-devtools-mcp@1.2.0')).toEqual({ name: 'chrome-devtools-mcp', version: '1.2.0' });
    expect(name('uvx mcp-server-git==2025.1.14 --repository /r')).toEqual({ name: 'mcp-server-git', version: '2025.1.14' });
    expect(name('uvx --from mcp-server-time==1.0 mcp-server-time')).toEqual({ name: 'mcp-server-time', version: '1.0' });
    expect(name('uv tool run mcp-server-fetch')).toEqual({ name: 'mcp-server-fetch' });
    expect(name('pipx run mcp-server-fetch')).toEqual({ name: 'mcp-server-fetch' });
  });

  it('looks past env, its options and its assignments, never naming a value', () => {
    expect(name('env GITHUB_PERSONAL_ACCESS_TOKEN=ghp_0123456789abcdefghij node server.js')).toEqual({ name: 'server.js' });
    expect(name('env -i -u HOME TOKEN=x npx -y @scope/pkg')).toEqual({ name: '@scope/pkg' });
    expect(name('mcp-server-git --repository gitrepo')).toEqual({ name: 'mcp-server-git' });
    expect(name('node --api-key sk-0123456789abcdefghijklmnop')).toEqual({ name: 'node' });
  });

  it('names a module, a main class or a jar', () => {
    expect(name('python3 -m mcp_server_time --local-timezone UTC')).toEqual({ name: 'mcp_server_time' });
    expect(name('java -cp server.jar io.example.mcp.FilesServer')).toEqual({ name: 'io.example.mcp.FilesServer' });
    expect(name('java -Xmx64m -jar /opt/servers/jira-mcp.jar --stdio')).toEqual({ name: 'jira-mcp' });
  });

  it('names the installed package that owns a script or a program, and a package entry; a loose script keeps its own name', () => {
    const dir = tempDir('crash-drill-name-');
    const pkg = join(dir, 'node_modules', '@scope', 'files');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@scope/files', version: '1.2.3', bin: { files: 'dist/index.js' } }));
    writeFileSync(join(pkg, 'dist', 'index.js'), '');
    mkdirSync(join(dir, 'node_modules', '.bin'));
    symlinkSync('../@scope/files/dist/index.js', join(dir, 'node_modules', '.bin', 'files'));
    expect(name(`node ${join(pkg, 'dist', 'index.js')}`)).toEqual({ name: '@scope/files', version: '1.2.3' });
    expect(name('./node_modules/.bin/files', dir)).toEqual({ name: '@scope/files', version: '1.2.3' });
    // A project's own entry (main) names the project; a script beside it does not.
    const project = join(dir, 'project');
    mkdirSync(join(project, 'build'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-server', main: 'build/index.js' }));
    writeFileSync(join(project, 'build', 'index.js'), '');
    writeFileSync(join(project, 'build', 'tool.js'), '');
    expect(name('node build/index.js', project)).toEqual({ name: 'my-server' });
    expect(name('node build/tool.js', project)).toEqual({ name: 'tool.js' });
  });
});
