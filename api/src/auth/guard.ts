// Authentication of API calls: the user behind the access cookie, or 401.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/schema';
import { HttpError } from '../http';
import { ACCESS_COOKIE } from './cookies';
import { authenticate, type SessionUser } from './sessions';

export async function requireUser(db: Db, request: FastifyRequest): Promise<SessionUser> {
  const user = await authenticate(db, request.cookies[ACCESS_COOKIE]);
  if (!user) throw new HttpError(401, { detail: 'Authentication credentials were not provided or have expired.' });
  return user;
}
