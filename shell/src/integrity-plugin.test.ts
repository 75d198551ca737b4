// Subresource integrity of a remote's entry script (integrity-plugin.ts): /remotes.json's integrity
// goes on the entry script the runtime creates for that remote, and on nothing else.
import integrityPlugin, { setEntryIntegrity } from './integrity-plugin';

type CreateScript = (args: { url: string; remoteInfo?: object }) => HTMLScriptElement | undefined;
const createScript = integrityPlugin().createScript as unknown as CreateScript;

const MANIFEST = 'http://localhost/remotes/devices/0123456789abcdef/mf-manifest.json';
const ENTRY = 'http://localhost/remotes/devices/0123456789abcdef/remoteEntry.1234abcd.js';
/** remoteInfo as the runtime has it once the manifest is read: entry = the entry script, version = the manifest URL. */
const devices = { name: 'devices', entry: ENTRY, version: MANIFEST, type: 'global', entryGlobalName: 'devices' };

afterEach(() => setEntryIntegrity('devices', MANIFEST, undefined));

test('the entry script of a remote given integrity is created with it and crossorigin="anonymous"', () => {
  setEntryIntegrity('devices', MANIFEST, 'sha384-abc');
  const script = createScript({ url: ENTRY, remoteInfo: devices });
  expect(script).toBeInstanceOf(HTMLScriptElement);
  expect(script!.src).toBe(ENTRY);
  expect(script!.integrity).toBe('sha384-abc');
  expect(script!.getAttribute('crossorigin')).toBe('anonymous');
});

test("another script of the remote (a page's chunk the runtime preloads) is left to the runtime", () => {
  setEntryIntegrity('devices', MANIFEST, 'sha384-abc');
  const chunk = 'http://localhost/remotes/devices/0123456789abcdef/412.5678abcd.js';
  expect(createScript({ url: chunk, remoteInfo: devices })).toBeUndefined();
});

test('a remote without integrity, another remote, or a script of no remote is left to the runtime', () => {
  expect(createScript({ url: ENTRY, remoteInfo: devices })).toBeUndefined();
  setEntryIntegrity('devices', MANIFEST, 'sha384-abc');
  expect(createScript({ url: ENTRY, remoteInfo: { ...devices, name: 'users' } })).toBeUndefined();
  expect(createScript({ url: ENTRY })).toBeUndefined();
});

test('an entry script read from another manifest than the registered one (an older version) gets no integrity', () => {
  setEntryIntegrity('devices', MANIFEST, 'sha384-abc');
  const older = { ...devices, version: 'http://localhost/remotes/devices/fedcba9876543210/mf-manifest.json' };
  expect(createScript({ url: ENTRY, remoteInfo: older })).toBeUndefined();
});
