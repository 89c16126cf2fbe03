import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The modules a page load evaluates before its first screen: everything
 * reached from `entry` through static, value-carrying imports and re-exports.
 * Type-only imports are erased by the build and dynamic `import()`s load on
 * demand, so neither is followed. Bare specifiers (packages) are collected,
 * not entered. Svelte components are read through their `<script>` blocks.
 */
export function startUpImports(entry: string): { files: Set<string>; packages: Map<string, string[]> } {
  const files = new Set<string>();
  /** Each package, with the files that import it. */
  const packages = new Map<string, string[]>();
  const queue = [resolve(entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of valueImports(file)) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else packages.set(packageName(specifier), [...(packages.get(packageName(specifier)) ?? []), file]);
    }
  }
  return { files, packages };
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function scriptOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** The specifiers of a module's static imports and re-exports that bring values, not only types. */
function valueImports(file: string): string[] {
  // Assets the build turns into side files (the stylesheet), not modules it evaluates.
  if (/\.(css|svg|png)$/.test(file)) return [];
  const source = ts.createSourceFile(file, scriptOf(file), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const typesOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typesOnly) found.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const typesOnly =
        statement.isTypeOnly ||
        (statement.exportClause !== undefined &&
          ts.isNamedExports(statement.exportClause) &&
          statement.exportClause.elements.length > 0 &&
          statement.exportClause.elements.every((element) => element.isTypeOnly));
      if (!typesOnly) found.push(statement.moduleSpecifier.text);
    }
  }
  return found;
}
