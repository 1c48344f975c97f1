import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's query parameters (a list's filters), and a setter of one of them: set, or removed
 * when empty. It replaces the history entry (a filter is not a new page), and leaves the URL as
 * it is when the value is already there.
 */
export function useQueryParams() {
  const [params, setParams] = useSearchParams();
  const setParam = useCallback(
    (key: string, value: string | undefined) => {
      setParams(
        (prev) => {
          if ((prev.get(key) ?? '') === (value ?? '')) return prev;
          const next = new URLSearchParams(prev);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [params, setParam] as const;
}
