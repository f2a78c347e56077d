/** A cause of a 422 Invalid, as the API server lists them in `details.causes`. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** A failed API request, with the Status the server sent. */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError';
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
    message: string,
    readonly causes: readonly StatusCause[] = [],
  ) {
    super(message);
  }

  /**
   * A precondition failed, as far as the response says: 409 Conflict (resourceVersion or uid),
   * or a JSON patch `test` op that did not hold, when the message or a cause names it
   * (kube-apiserver: 422 with the cause "testing value … failed"). A bare 422 to a JSON patch
   * needs a look at the object to tell (the plan executor's `isConflict`).
   */
  get isConflict(): boolean {
    if (this.status === 409 && this.reason !== 'AlreadyExists') return true;
    const texts = [this.message, ...this.causes.map((c) => c.message ?? '')];
    return texts.some((t) => /test operation|testing value|precondition/i.test(t));
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * 431 Request Header Fields Too Large: the API server would not read the request's headers (a
 * bearer token longer than it takes: 16 KiB of headers for a Node server, 1 MiB for
 * kube-apiserver). The credential is the client's, so it is a client fault (400
 * `CredentialTooLarge`, issue 25, item 11), never a 5xx.
 */
export const HEADERS_TOO_LARGE = 431;

export const headersTooLargeMessage =
  "the API server refused this request's headers as too large (HTTP 431 Request Header Fields Too Large): the bearer token is longer than it accepts";

/** The error of a non-2xx response, from its Status body when it has one. */
export function errorFromResponse(status: number, body: unknown): KubeApiError {
  if (status === HEADERS_TOO_LARGE)
    return new KubeApiError(status, 'RequestHeaderFieldsTooLarge', headersTooLargeMessage);
  if (!isRecord(body)) return new KubeApiError(status, undefined, `HTTP ${status}`);
  const details = isRecord(body.details) ? body.details : {};
  const causes = Array.isArray(details.causes)
    ? details.causes.filter(isRecord).map((c) => ({
        ...(str(c.reason) !== undefined ? { reason: str(c.reason) } : {}),
        ...(str(c.message) !== undefined ? { message: str(c.message) } : {}),
        ...(str(c.field) !== undefined ? { field: str(c.field) } : {}),
      }))
    : [];
  return new KubeApiError(
    typeof body.code === 'number' ? body.code : status,
    str(body.reason),
    str(body.message) ?? `HTTP ${status}`,
    causes,
  );
}

/**
 * The API server could not be asked at all: refused or dropped connections, DNS, timeouts, or a
 * certificate that no longer matches the kubeconfig's CA (a restarted or re-certified server).
 * Mapped to 503 `UpstreamUnavailable` or 502 `UpstreamCertificateRejected`, never a 500.
 */
export class UpstreamUnreachableError extends KubeApiError {
  constructor(
    readonly tls: boolean,
    message: string,
    /**
     * The request may have reached the server before the connection was lost (a reset or a hang
     * up, not a refused connection or a rejected certificate): a write's outcome is in doubt.
     */
    readonly mayHaveArrived = false,
  ) {
    super(503, tls ? 'UpstreamCertificateRejected' : 'UpstreamUnavailable', message);
  }
}

/** Failures that happen before a request is on the wire: it cannot have been applied. */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/;

const TLS_CODE = /CERT|SELF_SIGNED|TLS|SSL|ALTNAME|ISSUER|SIGNATURE/;

/** A transport failure of a request to the API server, as the error the routes answer with. */
export function unreachable(
  method: string,
  path: string,
  error: unknown,
): UpstreamUnreachableError {
  const e: NodeJS.ErrnoException = error instanceof Error ? error : new Error(String(error));
  const tls = TLS_CODE.test(e.code ?? '') || /certificate/i.test(e.message);
  return new UpstreamUnreachableError(
    tls,
    tls
      ? `the API server's certificate is not the one the kubeconfig trusts (${e.message}); ${method} ${path} was not sent`
      : `the API server is unreachable (${e.code ?? e.message}) for ${method} ${path}`,
    !tls && !NOT_SENT.test(e.code ?? ''),
  );
}
