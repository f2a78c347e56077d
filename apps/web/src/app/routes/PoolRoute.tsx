export function PoolRoute() {
  return null;
}
export function PoolConditionsRoute() {
  return null;
}
