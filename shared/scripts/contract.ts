// The contract of @veritas/shared with the shell and the remotes (shared/contract.json): the exports
// of each entry point loaded at run time, each with a hash of its declared type, and the package
// version they were recorded at. The version is what a remote's build requires (`^version`, see
// sharedSingletons() in webpack.factory.cjs) and what the registry's gate compares
// (src/remote-compatibility.ts), so an export removed or changed needs a major version, an export
// added a minor one. contract.test.ts checks the record; `pnpm --filter @veritas/shared run contract`
// writes it (scripts/record-contract.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import semverCompare from 'semver/functions/compare';
import semverMajor from 'semver/functions/major';
import semverMinor from 'semver/functions/minor';
import semverValid from 'semver/functions/valid';
import ts from 'typescript';

export const SHARED_DIR = path.resolve(__dirname, '..');
export const CONTRACT_FILE = path.join(SHARED_DIR, 'contract.json');
const PACKAGE_FILE = path.join(SHARED_DIR, 'package.json');
const SOURCE_DIR = path.join(SHARED_DIR, 'src') + path.sep;

/** The command that records the contract. */
export const RECORD_COMMAND = 'npx -y pnpm@10 --filter @veritas/shared run contract';

/** Export name → short hash of its kind and declared type. */
export type EntryExports = Record<string, string>;

export interface Contract {
  version: string;
  /** Entry point of package.json "exports" (e.g. "./domain") → its exports. */
  exports: Record<string, EntryExports>;
}

export type Bump = 'major' | 'minor';

export interface ContractChanges {
  /** "<entry point> <export>", sorted. */
  removed: string[];
  changed: string[];
  added: string[];
  /** The smallest version bump the changes need; null when the surface is the same. */
  bump: Bump | null;
}

interface PackageJson {
  version: string;
  exports: Record<string, string>;
}

export function readPackageJson(): PackageJson {
  return JSON.parse(fs.readFileSync(PACKAGE_FILE, 'utf8')) as PackageJson;
}

export function readContract(file = CONTRACT_FILE): Contract | null {
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Contract;
}

export function writeContract(contract: Contract, file = CONTRACT_FILE): void {
  fs.writeFileSync(file, `${JSON.stringify(contract, null, 2)}\n`);
}

/**
 * The entry points the shell and the remotes load at run time: every TypeScript target of
 * package.json "exports" except the test helpers (./testing, ./testing/*). JSON files and
 * ./package.json are data, not code with a type.
 */
export function runtimeEntryPoints(exportsMap: Record<string, string>): Record<string, string> {
  const entries = Object.entries(exportsMap).filter(
    ([entry, target]) => /\.tsx?$/.test(target) && entry !== './testing' && !entry.startsWith('./testing/'),
  );
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

const KINDS: [ts.SymbolFlags, string][] = [
  [ts.SymbolFlags.Function, 'function'],
  [ts.SymbolFlags.Class, 'class'],
  [ts.SymbolFlags.Enum, 'enum'],
  [ts.SymbolFlags.Variable, 'const'],
  [ts.SymbolFlags.Interface, 'interface'],
  [ts.SymbolFlags.TypeAlias, 'type'],
  [ts.SymbolFlags.Module, 'namespace'],
];

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.WriteArrayAsGenericType |
  ts.TypeFormatFlags.UseStructuralFallback;

/**
 * The same text on every machine: `import("<absolute path>")` becomes the path inside its package
 * (or inside shared/), and a well-known symbol's member (`__@iterator@432`) loses its checker id.
 */
function portable(text: string): string {
  return text
    .replace(/import\("([^"]+)"\)/g, (_, file: string) => {
      const inPackage = file.lastIndexOf('/node_modules/');
      const relative =
        inPackage >= 0 ? file.slice(inPackage + '/node_modules/'.length) : path.relative(SHARED_DIR, file);
      return `import("${relative.split(path.sep).join('/')}")`;
    })
    .replace(/(__@\w+)@\d+/g, '$1');
}

/** Prints types back as text; an object type's members one after the other on a line. */
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/**
 * `text`, a type as the checker writes it, with the members of every object type and of every union
 * in it in name order. The checker lists them in the order it first met them, which a new file
 * elsewhere in the package can change (a TypeBox `Static<…>` type's fields came out reordered when
 * a component was added): the same type must give the same text, or an added export would read as a
 * changed one. Parameters are named by their place (`p0`, `p1`…): a caller does not see their
 * names, and renaming a component's destructured props (`({ busy, ...props })`) changes no type.
 * Text the parser does not take whole is kept as it is.
 */
export function canonicalType(text: string): string {
  const source = ts.createSourceFile('type.ts', `type T = ${text};`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const [statement, ...more] = source.statements;
  // parseDiagnostics is internal to TypeScript, but the only way to know the text parsed whole.
  const { parseDiagnostics } = source as unknown as { parseDiagnostics?: readonly unknown[] };
  if (parseDiagnostics?.length || more.length || !statement || !ts.isTypeAliasDeclaration(statement)) return text;
  const inOrder = <T extends ts.Node>(nodes: readonly T[]) => {
    const texts = new Map(nodes.map((node) => [node, printer.printNode(ts.EmitHint.Unspecified, node, source)]));
    return ts.factory.createNodeArray([...nodes].sort((a, b) => byName(texts.get(a)!, texts.get(b)!)));
  };
  const inNameOrder: ts.TransformerFactory<ts.TypeNode> = (context) => {
    const visit = (node: ts.Node): ts.Node => {
      const visited = ts.visitEachChild(node, visit, context);
      if (ts.isTypeLiteralNode(visited))
        return context.factory.updateTypeLiteralNode(visited, inOrder(visited.members));
      if (ts.isUnionTypeNode(visited)) return context.factory.updateUnionTypeNode(visited, inOrder(visited.types));
      if (
        ts.isParameter(visited) &&
        ts.isParameter(node) &&
        !(ts.isIdentifier(node.name) && node.name.text === 'this')
      ) {
        const place = (node.parent as ts.SignatureDeclaration).parameters.indexOf(node);
        const { modifiers, dotDotDotToken, questionToken, type, initializer } = visited;
        const name = context.factory.createIdentifier(`p${place}`);
        return context.factory.updateParameterDeclaration(
          visited,
          modifiers,
          dotDotDotToken,
          name,
          questionToken,
          type,
          initializer,
        );
      }
      return visited;
    };
    return (root) => visit(root) as ts.TypeNode;
  };
  const [canonical = statement.type] = ts.transform(statement.type, [inNameOrder]).transformed;
  return printer.printNode(ts.EmitHint.Unspecified, canonical, source).replace(/\s+/g, ' ');
}

/**
 * How one export reads to its users: its kind, its type as the checker writes it, and the members of
 * every type of @veritas/shared's own sources that this type names (the props of a component, an
 * interface's fields), so that changing a type behind a name counts as a change. Types of other
 * packages (React, TanStack Query) are named, not expanded.
 */
function describeExport(checker: ts.TypeChecker, exported: ts.Symbol): string {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const declaration = symbol.declarations?.[0];
  const kinds = KINDS.filter(([flag]) => symbol.flags & flag).map(([, kind]) => kind);
  const typeText = (type: ts.Type, flags = FORMAT) => canonicalType(checker.typeToString(type, undefined, flags));
  const parts: string[] = [kinds.join('+') || 'unknown'];
  const named = new Map<string, ts.Type>();
  const seen = new Set<ts.Type>();

  const isOwn = (s: ts.Symbol | undefined) =>
    !!s?.declarations?.some((d) => path.resolve(d.getSourceFile().fileName).startsWith(SOURCE_DIR));

  const visitSignature = (signature: ts.Signature) => {
    for (const parameter of signature.getParameters()) visit(checker.getTypeOfSymbol(parameter));
    visit(checker.getReturnTypeOfSignature(signature));
  };

  // Collects the own named types reachable from `type` through unions, type arguments, members
  // of own or anonymous object types and signatures.
  const visit = (type: ts.Type) => {
    if (seen.has(type)) return;
    seen.add(type);
    if (type.aliasSymbol && isOwn(type.aliasSymbol)) named.set(checker.symbolToString(type.aliasSymbol), type);
    type.aliasTypeArguments?.forEach(visit);
    if (type.isUnionOrIntersection()) return type.types.forEach(visit);
    if (!(type.flags & ts.TypeFlags.Object)) return;
    const object = type as ts.ObjectType;
    if (object.objectFlags & ts.ObjectFlags.Reference)
      checker.getTypeArguments(type as ts.TypeReference).forEach(visit);
    const own = isOwn(type.symbol);
    const anonymous = !!(object.objectFlags & (ts.ObjectFlags.Anonymous | ts.ObjectFlags.Mapped));
    if (!own && !(anonymous && !type.aliasSymbol)) return;
    if (own && !anonymous && !type.aliasSymbol) named.set(checker.symbolToString(type.symbol), type);
    for (const property of checker.getPropertiesOfType(type)) visit(checker.getTypeOfSymbol(property));
    checker.getSignaturesOfType(type, ts.SignatureKind.Call).forEach(visitSignature);
    checker.getSignaturesOfType(type, ts.SignatureKind.Construct).forEach(visitSignature);
  };

  /** An object type's members, one per line; any other type as the checker expands it. */
  const members = (type: ts.Type) => {
    if (!(type.flags & ts.TypeFlags.Object)) {
      return typeText(type, FORMAT | ts.TypeFormatFlags.InTypeAlias);
    }
    const lines = checker.getPropertiesOfType(type).map((property) => {
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      return `${property.name}${optional}: ${typeText(checker.getTypeOfSymbol(property))}`;
    });
    for (const kind of [ts.SignatureKind.Call, ts.SignatureKind.Construct]) {
      for (const signature of checker.getSignaturesOfType(type, kind)) {
        // A signature parses as the one member of an object type.
        lines.push(canonicalType(`{ ${checker.signatureToString(signature, undefined, FORMAT, kind)} }`));
      }
    }
    for (const info of checker.getIndexInfosOfType(type)) {
      lines.push(`[${checker.typeToString(info.keyType)}]: ${typeText(info.type)}`);
    }
    return `{ ${lines.sort(byName).join('; ')} }`;
  };

  if (symbol.flags & ts.SymbolFlags.Value && declaration) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    parts.push(`value: ${typeText(type)}`);
    visit(type);
  }
  if (symbol.flags & ts.SymbolFlags.Type) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    parts.push(`type: ${typeText(type, FORMAT | ts.TypeFormatFlags.InTypeAlias)}`);
    if (type.flags & ts.TypeFlags.Object) parts.push(`members: ${members(type)}`);
    visit(type);
  }
  for (const name of [...named.keys()].sort(byName)) parts.push(`${name} = ${members(named.get(name)!)}`);
  return portable(parts.join('\n'));
}

/** The current exports of each run-time entry point, with the text each hash is made of. */
export function describeSurface(): Record<string, Record<string, string>> {
  const entries = runtimeEntryPoints(readPackageJson().exports);
  const configFile = ts.getParsedCommandLineOfConfigFile(path.join(SHARED_DIR, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!configFile) throw new Error('shared/tsconfig.json could not be read');
  const files = Object.values(entries).map((target) => path.join(SHARED_DIR, target));
  const program = ts.createProgram(files, { ...configFile.options, noEmit: true });
  const checker = program.getTypeChecker();
  const surface: Record<string, Record<string, string>> = {};
  for (const [entry, target] of Object.entries(entries)) {
    const source = program.getSourceFile(path.join(SHARED_DIR, target));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${target} (entry point "${entry}") is not a module`);
    const exported = checker.getExportsOfModule(module).sort((a, b) => byName(a.name, b.name));
    surface[entry] = Object.fromEntries(exported.map((symbol) => [symbol.name, describeExport(checker, symbol)]));
  }
  return surface;
}

/** The current exports of each run-time entry point: export name → short hash. */
export function currentExports(): Record<string, EntryExports> {
  const surface = describeSurface();
  return Object.fromEntries(
    Object.entries(surface).map(([entry, exported]) => [
      entry,
      Object.fromEntries(Object.entries(exported).map(([name, text]) => [name, shortHash(text)])),
    ]),
  );
}

/** What changed from `recorded` to `current`, and the bump it needs. */
export function compareExports(
  recorded: Record<string, EntryExports>,
  current: Record<string, EntryExports>,
): ContractChanges {
  const removed: string[] = [];
  const changed: string[] = [];
  const added: string[] = [];
  for (const entry of new Set([...Object.keys(recorded), ...Object.keys(current)])) {
    const before = recorded[entry] ?? {};
    const after = current[entry] ?? {};
    for (const name of Object.keys(before)) {
      if (!(name in after)) removed.push(`${entry} ${name}`);
      else if (before[name] !== after[name]) changed.push(`${entry} ${name}`);
    }
    for (const name of Object.keys(after)) if (!(name in before)) added.push(`${entry} ${name}`);
  }
  const bump = removed.length || changed.length ? 'major' : added.length ? 'minor' : null;
  return { removed: removed.sort(byName), changed: changed.sort(byName), added: added.sort(byName), bump };
}

/** Whether going from `from` to `to` is at least a `bump` (both valid semver, `to` not lower). */
export function isBumped(from: string, to: string, bump: Bump): boolean {
  if (semverMajor(to) > semverMajor(from)) return true;
  return bump === 'minor' && semverMajor(to) === semverMajor(from) && semverMinor(to) > semverMinor(from);
}

/** The version a `bump` of `from` leads to. */
export function bumped(from: string, bump: Bump): string {
  return bump === 'major' ? `${semverMajor(from) + 1}.0.0` : `${semverMajor(from)}.${semverMinor(from) + 1}.0`;
}

function describeChanges(changes: ContractChanges): string {
  const list = (label: string, names: string[]) =>
    names.length ? [`  ${label} (${names.length}):`, ...names.map((name) => `    ${name}`)] : [];
  return [
    ...list('removed', changes.removed),
    ...list('changed', changes.changed),
    ...list('added', changes.added),
  ].join('\n');
}

const WHY =
  'A removed or changed export needs a major version, added exports only a minor one: remotes require ' +
  '^<version> of @veritas/shared, and the registry refuses a build whose range the console does not satisfy.';

/**
 * Why package.json's `version` and the `current` exports can no longer be recorded over `recorded`
 * (the version is not valid semver, is lower than the recorded one, or was not bumped enough for the
 * changes); null when they can.
 */
export function refusalToRecord(recorded: Contract | null, version: string, current: Record<string, EntryExports>) {
  if (!semverValid(version)) return `shared/package.json's version "${version}" is not a valid semver version.`;
  if (!recorded) return null;
  if (!semverValid(recorded.version)) return `contract.json's version "${recorded.version}" is not valid semver.`;
  if (semverCompare(version, recorded.version) < 0) {
    return `shared/package.json's version ${version} is lower than the recorded contract's ${recorded.version}.`;
  }
  const changes = compareExports(recorded.exports, current);
  if (!changes.bump || isBumped(recorded.version, version, changes.bump)) return null;
  return [
    `The exports of @veritas/shared changed since contract ${recorded.version}:`,
    describeChanges(changes),
    `This needs a ${changes.bump} version: set "version" in shared/package.json to ${bumped(recorded.version, changes.bump)}` +
      (version === recorded.version ? '' : ` (it is ${version})`) +
      `, then record the contract: ${RECORD_COMMAND}`,
    WHY,
  ].join('\n');
}

/**
 * What is wrong with shared/contract.json (`recorded`) for package.json's `version` and the `current`
 * exports; null when it records exactly them. Used by contract.test.ts.
 */
export function contractProblem(recorded: Contract | null, version: string, current: Record<string, EntryExports>) {
  const refusal = refusalToRecord(recorded, version, current);
  if (refusal) return refusal;
  if (!recorded) return `shared/contract.json is missing: record it with ${RECORD_COMMAND}`;
  const changes = compareExports(recorded.exports, current);
  if (recorded.version !== version) {
    return (
      `shared/package.json is at ${version} but contract.json records ${recorded.version}` +
      (changes.bump ? ` (${changes.bump} changes:\n${describeChanges(changes)}\n)` : '') +
      `: record the contract with ${RECORD_COMMAND}`
    );
  }
  // Same version: refusalToRecord already refused any change.
  return null;
}
