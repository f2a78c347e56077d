/**
 * maxSurge / maxUnavailable as typed: an integer is sent as a number, anything else as the string
 * typed (`"25%"`, or a mistake that R-MD-2 then names), as Cluster API's IntOrString decodes it.
 */
export function parseIntOrString(text: string): number | string {
  return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim();
}
