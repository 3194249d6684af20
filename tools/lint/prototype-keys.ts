/**
 * Finds lookups that could reach `Object.prototype` with a name from outside: an element access
 * `o[k]`, or `k in o`, where `k` is any string (not a literal or a union of literals) and `o` is
 * a string-keyed record (`Record<string, T>`, `{ [key: string]: T }`). On a plain object,
 * `o['constructor']` is a function and `'toString' in o` is true, so a query parameter or a
 * form field named like a member of the prototype is found where nothing was stored (the audit's
 * 500 on `/?constructor=1&constructor=2`). Use a `Map`, or a null-prototype record typed
 * `Dict<T>` (`src/platform/dict.ts`), which this check accepts.
 *
 * Run by `tools/lint/prototype-keys.test.ts` (part of `npm test`) over every runtime file of
 * `src`.
 */
import ts from 'typescript';

/** One lookup that a prototype member's name could satisfy. */
export interface Finding {
  file: string;
  line: number;
  text: string;
}

/** The type aliases that mark a null-prototype record (`src/platform/dict.ts`). */
const SAFE_ALIASES: ReadonlySet<string> = new Set(['Dict', 'ReadonlyDict']);

/** The findings in `files`, checked with the compiler options of `tsconfigPath`. */
export function findPrototypeKeyLookups(files: readonly string[], tsconfigPath: string): Finding[] {
  const config = ts.readConfigFile(tsconfigPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(
    config.config,
    ts.sys,
    tsconfigPath.replace(/[^/]+$/, ''),
  );
  const program = ts.createProgram({ rootNames: [...files], options: parsed.options });
  const checker = program.getTypeChecker();
  const wanted = new Set(files.map((f) => ts.sys.resolvePath(f)));
  const findings: Finding[] = [];
  for (const source of program.getSourceFiles()) {
    if (!wanted.has(ts.sys.resolvePath(source.fileName))) continue;
    const visit = (node: ts.Node): void => {
      const hit = lookup(node);
      if (hit && isOpenKey(checker, hit.key) && isPlainRecord(checker, hit.target)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        findings.push({ file: source.fileName, line: line + 1, text: node.getText(source) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

/** The record and the key of `o[k]` or `k in o`. */
function lookup(node: ts.Node): { target: ts.Expression; key: ts.Expression } | null {
  if (ts.isElementAccessExpression(node))
    return { target: node.expression, key: node.argumentExpression };
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword)
    return { target: node.right, key: node.left };
  return null;
}

/** A key that may be any string: not a literal, not a union of literals, not a number. */
function isOpenKey(checker: ts.TypeChecker, key: ts.Expression): boolean {
  const type = checker.getTypeAtLocation(key);
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => (t.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) !== 0);
}

/** A plain object keyed by any string (not an array, a map or a `Dict`). */
function isPlainRecord(checker: ts.TypeChecker, target: ts.Expression): boolean {
  const type = checker.getNonNullableType(checker.getTypeAtLocation(target));
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => {
    if (t.aliasSymbol && isSafeAlias(checker, t.aliasSymbol)) return false;
    if (checker.isArrayType(t) || checker.isTupleType(t)) return false;
    return checker.getIndexInfosOfType(t).some((info) => info.keyType.flags & ts.TypeFlags.String);
  });
}

/** `Dict`, `ReadonlyDict`, or an alias of one of them (`type TableCounts = Dict<number>`). */
function isSafeAlias(checker: ts.TypeChecker, symbol: ts.Symbol, depth = 0): boolean {
  if (SAFE_ALIASES.has(symbol.name)) return true;
  const declaration = symbol.declarations?.[0];
  if (depth > 4 || !declaration || !ts.isTypeAliasDeclaration(declaration)) return false;
  if (!ts.isTypeReferenceNode(declaration.type)) return false;
  let target = checker.getSymbolAtLocation(declaration.type.typeName);
  if (target && target.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(target);
  return target !== undefined && isSafeAlias(checker, target, depth + 1);
}
