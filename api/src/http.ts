// Error answers. Every error body carries `detail`; routes add the field their console screen
// reads (`res` for login, `error` for users' actions) and `field` for invalid input.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: { detail: string } & Record<string, unknown>,
  ) {
    super(body.detail);
  }
}

export const badRequest = (field: string, detail: string, extra: Record<string, unknown> = {}) =>
  new HttpError(400, { detail, field, ...extra });

/** Reads a JSON object body; anything else is treated as empty so field checks report it. */
export function bodyOf(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
