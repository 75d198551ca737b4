// `pnpm --filter @veritas/shared run contract`: records shared/contract.json from the current
// exports and package.json's version; refuses when the exports changed and the version was not
// bumped for it (scripts/contract.ts says how much).
import {
  compareExports,
  currentExports,
  readContract,
  readPackageJson,
  refusalToRecord,
  writeContract,
} from './contract';

const { version } = readPackageJson();
const recorded = readContract();
const exports = currentExports();
const refusal = refusalToRecord(recorded, version, exports);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
const changes = recorded ? compareExports(recorded.exports, exports) : null;
writeContract({ version, exports });
const count = Object.values(exports).reduce((sum, entry) => sum + Object.keys(entry).length, 0);
const summary = !recorded
  ? 'first record'
  : changes?.bump
    ? `${changes.removed.length} removed, ${changes.changed.length} changed, ${changes.added.length} added since ${recorded.version}`
    : recorded.version === version
      ? 'unchanged'
      : `exports unchanged since ${recorded.version}`;
console.log(`shared/contract.json: @veritas/shared ${version}, ${count} exports (${summary})`);
