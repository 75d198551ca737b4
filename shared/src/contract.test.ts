/** @jest-environment node */
// shared/contract.json records the exports of @veritas/shared at its package version, which remotes
// require as ^version: a change to the exports must come with the version bump it needs.
import {
  canonicalType,
  compareExports,
  contractProblem,
  currentExports,
  readContract,
  readPackageJson,
  refusalToRecord,
  runtimeEntryPoints,
  type Contract,
} from '../scripts/contract';

const RECORDED: Contract = {
  version: '1.4.0',
  exports: { '.': { a: '111111111111', b: '222222222222' }, './domain': { c: '333333333333' } },
};
const withExports = (exports: Contract['exports']) => exports;

describe('shared/contract.json', () => {
  test('records the current exports at the current version of shared/package.json', () => {
    const problem = contractProblem(readContract(), readPackageJson().version, currentExports());
    if (problem) throw new Error(problem);
  });
});

describe('a type reads the same whatever order the checker lists its members in', () => {
  test("an object type's members, at any depth, in name order", () => {
    expect(canonicalType('{ b: string; a: Array<{ d?: number | undefined; c: string; }>; }')).toBe(
      canonicalType('{ a: Array<{ c: string; d?: number | undefined; }>; b: string; }'),
    );
    expect(canonicalType('{ b: string; a: number; }')).toBe('{ a: number; b: string; }');
  });

  test('a change of a member still reads as a change', () => {
    expect(canonicalType('{ a: number; b?: string; }')).not.toBe(canonicalType('{ a: number; b: string; }'));
    expect(canonicalType('TObject<{ key: TString; }>')).not.toBe(canonicalType('TObject<{ key: TNumber; }>'));
  });

  test("a union's members in name order, as they mean the same in any", () => {
    expect(canonicalType("{ kind: 'b' | 'a' | undefined; }")).toBe(canonicalType("{ kind: 'a' | undefined | 'b'; }"));
  });

  test("a parameter's name, or the props a component destructures, change nothing", () => {
    expect(canonicalType('({ busy, onClick, ...props }: Props) => Element')).toBe(
      canonicalType('({ busy, ...rest }: Props) => Element'),
    );
    expect(canonicalType('{ onChange(value: string): void; }')).toBe(
      canonicalType('{ onChange(next: string): void; }'),
    );
    expect(canonicalType('(value?: string, ...more: number[]) => void')).toBe('(p0?: string, ...p1: number[]) => void');
    expect(canonicalType('(value: string) => void')).not.toBe(canonicalType('(value: number) => void'));
  });

  test('the order of a tuple or of parameters is kept: it is part of the type', () => {
    expect(canonicalType('(b: string, a: number) => void')).not.toBe(canonicalType('(a: number, b: string) => void'));
    expect(canonicalType('[string, number]')).not.toBe(canonicalType('[number, string]'));
  });

  test('text the parser does not take whole is kept as it is', () => {
    expect(canonicalType('{ b: string; a: ')).toBe('{ b: string; a: ');
  });
});

describe('the contract rules', () => {
  test('the entry points are the TypeScript ones of "exports", without the test helpers', () => {
    expect(Object.keys(runtimeEntryPoints(readPackageJson().exports))).toEqual([
      '.',
      './access-tokens',
      './audit-vocabulary',
      './case-vocabulary',
      './domain',
      './field-faults',
      './filters',
      './first-calls',
      './query',
      './remote-compatibility',
      './retry-after',
      './table',
    ]);
  });

  test('the same exports at the same version pass', () => {
    expect(contractProblem(RECORDED, '1.4.0', RECORDED.exports)).toBeNull();
  });

  test('a removed export needs a major version', () => {
    const current = withExports({ '.': { a: '111111111111' }, './domain': { c: '333333333333' } });
    expect(compareExports(RECORDED.exports, current)).toEqual({
      removed: ['. b'],
      changed: [],
      added: [],
      bump: 'major',
    });
    for (const version of ['1.4.0', '1.5.0', '1.4.1']) {
      const problem = contractProblem(RECORDED, version, current);
      expect(problem).toContain('removed (1):\n    . b');
      expect(problem).toContain('needs a major version: set "version" in shared/package.json to 2.0.0');
      expect(problem).toContain('--filter @veritas/shared run contract');
    }
    expect(refusalToRecord(RECORDED, '2.0.0', current)).toBeNull();
  });

  test('a changed type of an export needs a major version', () => {
    const current = withExports({ '.': { a: '111111111111', b: 'ffffffffffff' }, './domain': { c: '333333333333' } });
    expect(compareExports(RECORDED.exports, current).bump).toBe('major');
    expect(contractProblem(RECORDED, '1.5.0', current)).toContain('changed (1):\n    . b');
    expect(refusalToRecord(RECORDED, '2.0.0', current)).toBeNull();
  });

  test('a removed entry point needs a major version', () => {
    const current = withExports({ '.': RECORDED.exports['.']! });
    expect(compareExports(RECORDED.exports, current)).toMatchObject({ removed: ['./domain c'], bump: 'major' });
  });

  test('only added exports need a minor version', () => {
    const current = withExports({ ...RECORDED.exports, './query': { d: '444444444444' } });
    expect(compareExports(RECORDED.exports, current)).toEqual({
      removed: [],
      changed: [],
      added: ['./query d'],
      bump: 'minor',
    });
    expect(contractProblem(RECORDED, '1.4.0', current)).toContain('needs a minor version');
    expect(contractProblem(RECORDED, '1.4.3', current)).toContain('to 1.5.0 (it is 1.4.3)');
    expect(refusalToRecord(RECORDED, '1.5.0', current)).toBeNull();
    expect(refusalToRecord(RECORDED, '2.0.0', current)).toBeNull();
  });

  test('a bumped version that is not recorded yet fails until the contract is recorded', () => {
    expect(contractProblem(RECORDED, '1.4.1', RECORDED.exports)).toContain('records 1.4.0: record the contract');
    const current = withExports({ ...RECORDED.exports, './query': { d: '444444444444' } });
    expect(contractProblem(RECORDED, '1.5.0', current)).toContain('records 1.4.0 (minor changes');
  });

  test('a version that is not valid semver fails', () => {
    expect(contractProblem(RECORDED, '1.5', RECORDED.exports)).toContain('"1.5" is not a valid semver version');
    expect(contractProblem(null, 'next', RECORDED.exports)).toContain('is not a valid semver version');
  });

  test('a version lower than the recorded one fails', () => {
    expect(contractProblem(RECORDED, '1.3.9', RECORDED.exports)).toContain('1.3.9 is lower than the recorded');
  });

  test('a missing contract.json fails with the command that records it', () => {
    expect(contractProblem(null, '1.0.0', RECORDED.exports)).toContain('contract.json is missing');
  });
});
