// The body a failed call of the shared http client answered. Read structurally: this remote does
// not depend on axios itself, the client lives in @veritas/shared.

interface FailedCall {
  response?: { data?: unknown };
}

/** The error body as text: a string as-is, an object as JSON; undefined when there is none. */
export function responseBodyText(error: unknown): string | undefined {
  const body = (error as FailedCall | null)?.response?.data;
  if (typeof body === 'string') return body.trim() ? body : undefined;
  if (body && typeof body === 'object' && Object.keys(body).length > 0) return JSON.stringify(body);
  return undefined;
}
