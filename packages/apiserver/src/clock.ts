/**
 * Timestamps as Kubernetes writes them: RFC 3339 in UTC, to the second. Every write takes one or
 * two (creationTimestamp, managedFields times); the text changes once a second, so it is built
 * once a second instead of per call.
 */
let second = Number.NaN;
let text = '';

export function timestampNow(): string {
  const s = Math.floor(Date.now() / 1000);
  if (s !== second) {
    second = s;
    text = new Date(s * 1000).toISOString().replace('.000Z', 'Z');
  }
  return text;
}
