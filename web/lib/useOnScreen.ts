import { useEffect, useRef } from 'react';

/** Calls `onEnter` whenever the returned ref's element comes near the viewport (while `enabled`). */
export function useOnScreen<T extends Element>(onEnter: () => void, enabled: boolean, rootMargin = '400px') {
  const ref = useRef<T>(null);
  const callback = useRef(onEnter);
  useEffect(() => {
    callback.current = onEnter;
  });
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) callback.current();
    }, { rootMargin });
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled, rootMargin]);
  return ref;
}
