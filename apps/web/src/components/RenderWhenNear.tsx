import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` once its place comes within `margin` of the viewport, `placeholder` until
 * then; once rendered, it stays. A page of hundreds of heavy items (200 pool cards) then costs what
 * the screenful the user looks at costs, and scrolling renders the rest just before they show.
 * Without IntersectionObserver (old browsers, test DOMs) everything renders at once.
 */
export function RenderWhenNear({
  children,
  placeholder,
  eager = false,
  margin = '800px',
}: {
  children: ReactNode;
  placeholder: ReactNode;
  /** Render at once (the first screenful). */
  eager?: boolean;
  margin?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(eager || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
    };
  }, [near, margin]);
  return near ? children : <div ref={ref}>{placeholder}</div>;
}
