export function IpPoolsRoute() {
  return null;
}
export function IpPoolRoute() {
  return null;
}
