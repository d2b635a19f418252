import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** A function of the product and its length in lines, from its first line to its closing brace. */
export interface FunctionLength {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(root, path);
    return e.isFile() && e.name.endsWith('.ts') ? [path] : [];
  });
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isGetAccessor(node) ||
  ts.isConstructorDeclaration(node);

/**
 * Every function with a body in the given folders: declarations, methods, accessors, and function or arrow
 * expressions, callbacks included (a 90-line callback is a 90-line function, whoever calls it). A nested
 * function is counted on its own and inside its parent.
 */
export function functionLengths(root: string, folders: readonly string[]): FunctionLength[] {
  const out: FunctionLength[] = [];
  for (const file of folders.flatMap((f) => tsFiles(root, f))) {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
    const visit = (node: ts.Node, hint: string) => {
      if (isFunction(node) && node.body) {
        const name = ts.isConstructorDeclaration(node) ? 'constructor' : (node.name?.getText(source) ?? hint);
        const line = lineOf(node.getStart(source));
        out.push({ file, line, name, lines: lineOf(node.getEnd()) - line + 1 });
      }
      let next = hint;
      if ((ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) && node.name)
        next = node.name.getText(source);
      if (ts.isCallExpression(node)) next = `${node.expression.getText(source).slice(0, 30)}(callback)`;
      ts.forEachChild(node, (child) => visit(child, next));
    };
    visit(source, '<anonymous>');
  }
  return out;
}
