/**
 * The static import graph of the harness's sources, for the layering test (test/layering.test.ts):
 * every `import` and `export ... from` of a file, `import type` included (a folder loop is a
 * design bug even when every edge is a type), read with the TypeScript parser, not a regular
 * expression, so a multi-line import or a path in a comment is read as what it is. A dynamic
 * `import()` is not an edge: it loads on demand, at run time, and the layering is of what a
 * module needs to be read.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

export type Import = {
  /** The file imported, relative to the root (`harness/observe/proc.ts`), or the package's name for a bare specifier. */
  target: string;
  /** True when no value of it is loaded at run time: `import type`, `export type`, or only `type` names. */
  typeOnly: boolean;
};

/** Every .ts file under `dir` (relative to `root`), in a stable order. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir))
    .sort()
    .flatMap((name) => {
      const path = posix.join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
}

function resolveSpecifier(root: string, file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const base = posix.normalize(posix.join(posix.dirname(file), spec));
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, `${base}/index.ts`]) {
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  return base;
}

/** Whether an import or export clause loads no value: the whole clause, or every name in it, is a type. */
function clauseIsTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // `import './x.js'`: run for its effect
    if (clause.isTypeOnly) return true;
    if (clause.name) return false;
    const bindings = clause.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return false;
    return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  if (!clause || ts.isNamespaceExport(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** The static imports and re-exports of one file. */
export function importsOf(root: string, file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return source.statements.flatMap((node) => {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) return [];
    const spec = node.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) return [];
    return [{ target: resolveSpecifier(root, file, spec.text), typeOnly: clauseIsTypeOnly(node) }];
  });
}

/** Strongly connected components of more than one node (or a node importing itself): the circles of a graph. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}
