export function MachineRoute() {
  return null;
}
