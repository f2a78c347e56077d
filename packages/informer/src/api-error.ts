/** A failed API request: the HTTP status (or a Status object's `code`) and its reason, if known. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly reason: string | undefined;

  constructor(statusCode: number, message: string, reason?: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.reason = reason;
  }
}

/** A Status object (`kind: Status`) as the API server sends in error bodies and ERROR events. */
export interface Status {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a Status from any JSON value; fields of the wrong type are dropped. */
export function toStatus(value: unknown): Status {
  if (!isRecord(value)) return {};
  const { code, reason, message } = value;
  return {
    ...(typeof code === 'number' ? { code } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/**
 * "Your resourceVersion is too old": HTTP 410, or a Status with code 410 or reason Expired/Gone
 * (servers differ in which they fill in). The cure is a fresh LIST, never a retry.
 */
export function isGoneStatus(status: Status): boolean {
  return status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone';
}

export function isGoneError(error: unknown): boolean {
  return (
    error instanceof ApiError && isGoneStatus({ code: error.statusCode, reason: error.reason })
  );
}

export function statusError(status: Status, fallbackCode: number): ApiError {
  const code = status.code ?? fallbackCode;
  return new ApiError(code, status.message ?? `HTTP ${code}`, status.reason);
}

/** Any thrown value as an Error, so hooks always receive one. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
