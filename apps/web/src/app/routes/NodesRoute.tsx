export function NodesRoute() {
  return null;
}
