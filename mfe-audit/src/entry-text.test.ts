import { NONE, actorText, splitDetails, targetText, valueText } from './entry-text';

test('the actor: a user with their role (operators as Wishmaster), a token, an anonymous sign-in, the server', () => {
  expect(actorText({ kind: 'user', id: '3', name: 'admin_demo', role: 'admin' })).toBe('admin_demo (admin)');
  expect(actorText({ kind: 'user', id: '4', name: 'wm_blr', role: 'operators' })).toBe('wm_blr (Wishmaster)');
  expect(actorText({ kind: 'user', id: '4', name: 'wm_blr', role: null })).toBe('wm_blr');
  expect(actorText({ kind: 'token', id: '9', name: 'devices pipeline', role: null })).toBe('devices pipeline (token)');
  expect(actorText({ kind: 'anonymous', id: null, name: 'mallory', role: null })).toBe('mallory (anonymous)');
  expect(actorText({ kind: 'anonymous', id: null, name: '', role: null })).toBe('anonymous');
  expect(actorText({ kind: 'system', id: null, name: 'system', role: null })).toBe('system');
});

test('the target: kind and label', () => {
  expect(targetText({ kind: 'brand', id: '2', label: 'Acme' })).toBe('brand: Acme');
  expect(targetText(null)).toBe(NONE);
});

test('values are text: strings as they are, anything else as JSON', () => {
  expect(valueText('<b>bold</b>')).toBe('<b>bold</b>');
  expect(valueText(3)).toBe('3');
  expect(valueText(null)).toBe('null');
  expect(valueText(false)).toBe('false');
  expect(valueText(['a', 'b'])).toBe('["a","b"]');
  expect(valueText({ a: { b: 1 } })).toBe('{"a":{"b":1}}');
  expect(valueText(undefined)).toBe(NONE);
});

describe('splitDetails', () => {
  test('no details: nothing to show', () => {
    expect(splitDetails(null)).toEqual({ change: null, other: [] });
  });

  test('without before and after, every key is a plain value', () => {
    expect(splitDetails({ status: 403, message: 'No.', before: 1 })).toEqual({
      change: null,
      other: [
        ['status', '403'],
        ['message', 'No.'],
        ['before', '1'],
      ],
    });
  });

  test('before and after objects compare field by field, each field of either, in order', () => {
    const { change, other } = splitDetails({
      before: { name: 'Acme', data: ['HP'], active: true },
      after: { name: 'Acme', data: ['HP', 'Dell'], owner: 'asha' },
      reason: 'cleanup',
    });
    expect(change).toEqual([
      { field: 'name', before: 'Acme', after: 'Acme', changed: false },
      { field: 'data', before: '["HP"]', after: '["HP","Dell"]', changed: true },
      { field: 'active', before: 'true', after: NONE, changed: true },
      { field: 'owner', before: NONE, after: 'asha', changed: true },
    ]);
    expect(other).toEqual([['reason', 'cleanup']]);
  });

  test('before and after that are not both objects are one row', () => {
    expect(splitDetails({ before: 10, after: 20 }).change).toEqual([
      { field: '', before: '10', after: '20', changed: true },
    ]);
    expect(splitDetails({ before: null, after: { a: 1 } }).change).toEqual([
      { field: '', before: 'null', after: '{"a":1}', changed: true },
    ]);
  });
});
