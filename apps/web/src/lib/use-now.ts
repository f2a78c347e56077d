import { useEffect, useState, useSyncExternalStore } from 'react';

/** The current time, refreshed every `ms`: relative times tick without a render per row. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, ms);
    return () => {
      clearInterval(timer);
    };
  }, [ms]);
  return now;
}

/**
 * A time shared by many small readers (`useClockNow`), refreshed every `ms` while the owner is
 * mounted. Unlike `useNow` passed down as a prop, a tick re-renders the readers alone (the age
 * cells of a table), not the rows that hold them: a virtualized table of 50 rows in view re-ran
 * every row's chips, checkboxes and links every tick, one long task (issue 14).
 */
export interface Clock {
  subscribe: (listener: () => void) => () => void;
  now: () => number;
}

export function useClock(ms: number): Clock {
  const [state] = useState(() => {
    let now = Date.now();
    const listeners = new Set<() => void>();
    const clock: Clock = {
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      now: () => now,
    };
    const tick = () => {
      now = Date.now();
      for (const l of listeners) l();
    };
    return { clock, tick };
  });
  useEffect(() => {
    const timer = setInterval(state.tick, ms);
    return () => {
      clearInterval(timer);
    };
  }, [state, ms]);
  return state.clock;
}

/** The clock's time; re-renders the caller on each tick. */
export function useClockNow(clock: Clock): number {
  return useSyncExternalStore(clock.subscribe, clock.now);
}
