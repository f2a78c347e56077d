import { afterAll, beforeAll } from 'vitest';

/**
 * happy-dom lays nothing out: for the tests of this file, every element measures 800 px, so that
 * virtualized tables render rows. Call at a test file's top level.
 */
export function withLaidOutElements(): void {
  const sizes = ['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth'] as const;
  const saved = sizes.map(
    (k) =>
      Object.getOwnPropertyDescriptor(Element.prototype, k) ??
      Object.getOwnPropertyDescriptor(HTMLElement.prototype, k),
  );
  beforeAll(() => {
    for (const k of sizes)
      Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => 800 });
  });
  afterAll(() => {
    sizes.forEach((k, i) => {
      const d = saved[i];
      if (d) Object.defineProperty(HTMLElement.prototype, k, d);
    });
  });
}
