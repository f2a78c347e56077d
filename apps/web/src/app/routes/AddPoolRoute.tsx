export function AddPoolRoute() {
  return null;
}
