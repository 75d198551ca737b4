/** @jest-environment node */
import { CanaryPayload, OriginPayload, TokenCreatePayload } from './registry';
import { fieldMessage, formFaults, formProblem } from './form-check';
import { UserCreatePayload } from './users';

const USER = {
  username: 'asha',
  email: 'asha@example.com',
  password: 'x',
  role: 'incharge',
  organization: 'hub',
  group: 'BLR01',
};

describe('formFaults', () => {
  test('nothing wrong: no faults', () => {
    expect(formFaults(UserCreatePayload, USER).size).toBe(0);
    expect(formProblem(CanaryPayload, { version: 3, percent: 10 })).toBeNull();
  });

  test('each faulty field once, in the schema order, with the message its schema gives', () => {
    const faults = formFaults(UserCreatePayload, { ...USER, username: '', email: 'asha@', role: 'pilot' });
    expect([...faults]).toEqual([
      ['username', 'Username is required.'],
      ['email', 'Enter a valid email address.'],
      ['role', 'Unknown role "pilot".'],
    ]);
  });

  test('absent or empty reads as missing; a bound or a pattern has its own message', () => {
    expect(formProblem(TokenCreatePayload, { label: '', scope: 'deploy:*', expiresOn: '2030-01-01' })).toBe(
      'Give the token a label.',
    );
    expect(formProblem(TokenCreatePayload, { label: 'ci', scope: 'deploy:*', expiresOn: '' })).toBe(
      'Choose when the token expires.',
    );
    expect(formProblem(TokenCreatePayload, { label: 'ci', scope: 'deploy:', expiresOn: '2030-01-01' })).toBe(
      'Unknown scope "deploy:": deploy:<remote> or deploy:*.',
    );
    expect(formProblem(CanaryPayload, { version: 3, percent: 100 })).toBe('The share of users is 1 to 99 percent.');
    expect(formProblem(CanaryPayload, { version: 3, percent: 0 })).toBe('The share of users is 1 to 99 percent.');
    expect(formProblem(OriginPayload, { origin: 'http://cdn.example.com' })).toBe(
      'An origin is https://host or https://host:port, nothing after it.',
    );
  });

  test('text over a field’s own limit is refused with that limit', () => {
    expect(
      formProblem(TokenCreatePayload, { label: 'x'.repeat(101), scope: 'deploy:*', expiresOn: '2030-01-01' }),
    ).toBe('Text may be at most 100 characters.');
    expect(
      formProblem(TokenCreatePayload, { label: 'x'.repeat(100), scope: 'deploy:*', expiresOn: '2030-01-01' }),
    ).toBeNull();
  });

  test('a format is the server’s to check', () => {
    expect(formProblem(TokenCreatePayload, { label: 'ci', scope: 'deploy:*', expiresOn: '2030-02-31' })).toBeNull();
  });

  test('the schema’s if/else: every role but central_ops needs an organization and a group', () => {
    const { organization: _organization, group: _group, ...alone } = USER;
    expect([...formFaults(UserCreatePayload, alone)]).toEqual([
      ['organization', 'Organization is required for this role.'],
      ['group', 'Group is required for this role.'],
    ]);
    expect(formFaults(UserCreatePayload, { ...alone, role: 'central_ops' }).size).toBe(0);
    expect(formProblem(UserCreatePayload, { ...USER, organization: 'moon' })).toBe('Organization must be hub or RC.');
  });
});

describe('fieldMessage', () => {
  const messages = { missing: 'Role is required.', enum: 'Unknown role "{value}".' };

  test('absent, null or empty is missing; else the keyword’s message, with the value', () => {
    for (const value of [undefined, null, '']) expect(fieldMessage(messages, 'enum', value)).toBe('Role is required.');
    expect(fieldMessage(messages, 'enum', 'pilot')).toBe('Unknown role "pilot".');
    expect(fieldMessage(messages, 'enum', '$&')).toBe('Unknown role "$&".');
  });

  test('a keyword without a message of its own reads as missing', () => {
    expect(fieldMessage(messages, 'maxLength', 'x')).toBe('Role is required.');
    expect(fieldMessage(messages, undefined, 'x')).toBe('Role is required.');
  });
});
