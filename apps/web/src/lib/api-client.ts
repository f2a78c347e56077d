import type { RuleIssue } from '@dcs/domain';
import { env } from '../config/env';

/**
 * The one place that talks HTTP to the BFF. JSON in and out; errors become ApiError with the
 * BFF's `{code, message, details: RuleIssue[]}` (ARCHITECTURE.md); mutating requests carry the
 * CSRF token that the session route hands out.
 */

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: RuleIssue[];
  /** The whole body, for errors that carry more (a 409's base/theirs/yours). */
  readonly body: unknown;
  /** The answer's Retry-After in seconds (a 503 while the BFF's caches fill), when it gave one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    details: RuleIssue[],
    body: unknown,
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** Retry-After as delay-seconds (the BFF never sends an HTTP date); anything else is ignored. */
function retryAfter(header: string | null): number | undefined {
  if (header === null || !/^\d{1,4}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

let csrfToken: string | undefined;

/** Set by the session query whenever the BFF hands out a (new) token. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called on a 401 (expired session): the app shows the sign-in screen. */
let onUnauthorized: (() => void) | undefined;
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

export const CSRF_HEADER = 'x-csrf-token';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  /** A list is sent as the key repeated (`object=a&object=b`). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  signal?: AbortSignal | undefined;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (Array.isArray(v)) for (const x of v as readonly string[]) params.append(k, x);
    else if (v !== undefined) params.set(k, String(v));
  }
  const qs = params.toString();
  return `${env.apiBase}${path}${qs ? `?${qs}` : ''}`;
}

/** A path segment, escaped. */
export const seg = (s: string): string => encodeURIComponent(s);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRuleIssue(v: unknown): v is RuleIssue {
  return isRecord(v) && typeof v.path === 'string' && typeof v.message === 'string';
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  const res = await fetch(apiUrl(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const body = await readBody(res);
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/session')) onUnauthorized?.();
    const obj = isRecord(body) ? body : {};
    const details = Array.isArray(obj.details) ? obj.details.filter(isRuleIssue) : [];
    throw new ApiError(
      res.status,
      typeof obj.code === 'string' ? obj.code : `HTTP_${res.status}`,
      typeof obj.message === 'string' ? obj.message : res.statusText || `HTTP ${res.status}`,
      details,
      body,
      retryAfter(res.headers.get('retry-after')),
    );
  }
  return body as T;
}
