import {
  canBeAssignedCase,
  canCommentCase,
  canReadCase,
  canReadCases,
  canRunCaseJobs,
  canSetCaseDueTimes,
  canWorkCase,
  worksAllCases,
  worksCases,
} from './case-rights';
import {
  ALL_HUBS,
  CONSOLE_ROLES,
  ROLES,
  assignableRoles,
  canCreateGroup,
  canDeleteUser,
  canManageDeployAccess,
  canOpenDeployments,
  userActionRefusal,
  userRoleRefusal,
  dashboardStartHub,
  roleLabel,
} from './roles';
import type { Role } from './types';

describe('role labels', () => {
  test('operators are shown as Wishmaster, other roles under their own name', () => {
    expect(ROLES.map(roleLabel)).toEqual([
      'Wishmaster',
      'executive',
      'incharge',
      'central_ops',
      'admin',
      'super_admin',
    ]);
  });
});

describe('roles a creator may assign (docs/screens.md#server-side-rights)', () => {
  test.each<[Role, Role[]]>([
    ['incharge', ['executive', 'operators']],
    ['central_ops', ['incharge', 'executive']],
    ['admin', ['operators', 'executive', 'incharge', 'central_ops']],
    ['super_admin', ['operators', 'executive', 'incharge', 'central_ops']],
    ['executive', []],
    ['operators', []],
  ])('%s may assign %j', (creator, roles) => {
    expect(assignableRoles(creator)).toEqual(roles);
  });

  test('nobody may create a super_admin, and no role means nothing assignable', () => {
    for (const role of ROLES) expect(assignableRoles(role)).not.toContain('super_admin');
    expect(assignableRoles(null)).toEqual([]);
  });
});

describe('group creation and user deletion', () => {
  test.each<[Role, boolean]>([
    ['admin', true],
    ['super_admin', true],
    ['central_ops', false],
    ['incharge', false],
    ['executive', false],
    ['operators', false],
  ])('create-group form for %s: %s', (role, allowed) => {
    expect(canCreateGroup(role)).toBe(allowed);
  });

  test('only super_admin may delete users', () => {
    expect(ROLES.filter(canDeleteUser)).toEqual(['super_admin']);
    expect(canDeleteUser(null)).toBe(false);
  });
});

describe('dashboard start hub (docs/dashboard.md#start-hub)', () => {
  test.each<Role>(['admin', 'super_admin'])('%s starts with all hubs even with a hub of their own', (role) => {
    expect(dashboardStartHub(role, 'BLR01')).toBe(ALL_HUBS);
  });

  test.each<Role>(['operators', 'executive', 'incharge', 'central_ops'])(
    '%s starts with their own hub code, lower-cased',
    (role) => {
      expect(dashboardStartHub(role, 'BLR01')).toBe('blr01');
    },
  );

  test('a non-admin without a hub starts with all hubs', () => {
    expect(dashboardStartHub('executive', null)).toBe(ALL_HUBS);
    expect(dashboardStartHub('executive', '')).toBe(ALL_HUBS);
  });
});

describe('userActionRefusal (docs/screens.md#server-side-rights: activate/deactivate/delete)', () => {
  test('nobody acts on their own account', () => {
    for (const action of ['toggle', 'delete'] as const) {
      expect(
        userActionRefusal(action, { user: 'ravi', role: 'super_admin' }, { username: 'ravi', role: 'super_admin' }),
      ).toBe('You cannot change your own account');
    }
  });

  test('(de)activation only of roles the actor may assign', () => {
    expect(
      userActionRefusal('toggle', { user: 'a', role: 'admin' }, { username: 'b', role: 'central_ops' }),
    ).toBeNull();
    expect(userActionRefusal('toggle', { user: 'a', role: 'admin' }, { username: 'b', role: 'admin' })).toBe(
      'Your role cannot manage users with the role admin',
    );
    expect(
      userActionRefusal('toggle', { user: 'a', role: 'incharge' }, { username: 'b', role: 'operators' }),
    ).toBeNull();
    expect(
      userActionRefusal('toggle', { user: 'a', role: 'incharge' }, { username: 'b', role: 'incharge' }),
    ).not.toBeNull();
  });

  test('userRoleRefusal, the server’s (which refuses oneself by id first): the role as it is shown', () => {
    expect(userRoleRefusal('toggle', 'central_ops', 'operators')).toBe(
      'Your role cannot manage users with the role Wishmaster',
    );
    expect(userRoleRefusal('toggle', 'central_ops', 'incharge')).toBeNull();
    expect(userRoleRefusal('delete', 'super_admin', 'super_admin')).toBeNull();
    expect(userRoleRefusal('delete', 'central_ops', 'executive')).toBe('Only a super admin can delete users.');
  });

  test('deletion is super_admin only', () => {
    expect(
      userActionRefusal('delete', { user: 'a', role: 'super_admin' }, { username: 'b', role: 'admin' }),
    ).toBeNull();
    expect(userActionRefusal('delete', { user: 'a', role: 'admin' }, { username: 'b', role: 'operators' })).toBe(
      'Only a super admin can delete users.',
    );
  });
});

describe('Deployments (docs/screens.md#deployments)', () => {
  test('canOpenDeployments: admin and super_admin; canManageDeployAccess (tokens, origins): super_admin', () => {
    expect(ROLES.filter(canOpenDeployments)).toEqual(['admin', 'super_admin']);
    expect(ROLES.filter(canManageDeployAccess)).toEqual(['super_admin']);
    expect(canManageDeployAccess(null)).toBe(false);
  });
});

describe('the cases rights (docs/screens.md#cases-rights)', () => {
  const viewer = (role: Role, groupCode: string | null = 'HUB1') => ({ role, groupCode });

  test('worksAllCases: central_ops, admin, super_admin; worksCases adds incharge', () => {
    expect(ROLES.filter(worksAllCases)).toEqual(['central_ops', 'admin', 'super_admin']);
    expect(ROLES.filter(worksCases)).toEqual(['incharge', 'central_ops', 'admin', 'super_admin']);
  });

  test('canReadCases: every console role', () => {
    expect(ROLES.filter(canReadCases)).toEqual(CONSOLE_ROLES);
    expect(canReadCases(null)).toBe(false);
  });

  test('canReadCase and canCommentCase: every queue, or (incharge, executive) its group’s, in any case', () => {
    for (const rule of [canReadCase, canCommentCase]) {
      expect(rule(viewer('central_ops', null), 'HUB2')).toBe(true);
      expect(rule(viewer('executive'), 'hub1')).toBe(true);
      expect(rule(viewer('executive'), 'HUB2')).toBe(false);
      expect(rule(viewer('incharge', null), 'HUB1')).toBe(false);
      expect(rule(viewer('operators'), 'HUB1')).toBe(false);
    }
  });

  test('canWorkCase and canBeAssignedCase: every queue, or an incharge its group’s; never an executive', () => {
    for (const rule of [canWorkCase, canBeAssignedCase]) {
      expect(rule(viewer('admin', null), 'HUB2')).toBe(true);
      expect(rule(viewer('incharge'), 'hub1')).toBe(true);
      expect(rule(viewer('incharge'), 'HUB2')).toBe(false);
      expect(rule(viewer('executive'), 'HUB1')).toBe(false);
    }
  });

  test('canRunCaseJobs: the roles that work cases; canSetCaseDueTimes: super_admin', () => {
    expect(ROLES.filter(canRunCaseJobs)).toEqual(ROLES.filter(worksCases));
    expect(ROLES.filter(canSetCaseDueTimes)).toEqual(['super_admin']);
    expect(canRunCaseJobs(null)).toBe(false);
  });
});
