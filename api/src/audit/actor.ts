// Who a request acts as, for the audit trail: the deploy token or signed-in user its scope's hook
// identified (plugins/authentication.ts), else anonymous, named by the username it tried when it
// signs in. The address is request.ip: the client's own, or the forwarded one when the request
// came through a trusted proxy (VERITAS_TRUST_PROXY), never a header otherwise.
import type { FastifyRequest } from 'fastify';
import { MAX_USERNAME_LENGTH } from '@veritas/shared/domain';
import { tokenBy, type AuditBy } from './trail';

export function auditByOf(request: FastifyRequest): AuditBy {
  const address = request.ip ?? null;
  if (request.accessToken) return tokenBy(request.accessToken, address);
  if (request.user) {
    const { id, username, role } = request.user;
    return { actor: { kind: 'user', id: String(id), name: username, role }, address };
  }
  return { actor: { kind: 'anonymous', id: null, name: triedUsername(request.body), role: null }, address };
}

/** The username a sign-in sent, cut to the longest a username may be; '' when it sent none. */
function triedUsername(body: unknown): string {
  const username = (body as { username?: unknown } | null)?.username;
  return typeof username === 'string' ? username.trim().slice(0, MAX_USERNAME_LENGTH) : '';
}
