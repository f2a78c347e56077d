/** A list route answers with an array or with `{items: [...]}`; both mean the same. */
export type ListWire<T> = readonly T[] | { items: readonly T[] };

export function itemsOf<T>(wire: ListWire<T> | undefined): T[] {
  if (!wire) return [];
  return Array.isArray(wire)
    ? [...(wire as readonly T[])]
    : [...(wire as { items: readonly T[] }).items];
}
