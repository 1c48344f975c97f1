import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { previewsLeftText } from '../../../shared/domain';
import { queryKeys } from '../../../shared/queries/keys';
import { api } from '../../lib/api';

/** How often the count is asked again while previews are being fetched. */
const POLL_MS = 5_000;

/**
 * "Fetching previews: n left" while the background worker fills in an import's links (for the
 * collection's editors); when the count moves, the cards are refetched with what arrived.
 */
export function PreviewsLeft({ supercurationId }: { supercurationId: string }) {
  const queryClient = useQueryClient();
  const left = useQuery({
    queryKey: queryKeys.previewsLeft(supercurationId),
    queryFn: ({ signal }) => api.supercurationPreviewsLeft(supercurationId, signal),
    refetchInterval: (query) => ((query.state.data?.left ?? 0) > 0 ? POLL_MS : false),
    retry: false,
  });
  const n = left.data?.left ?? 0;
  const previous = useRef(n);
  useEffect(() => {
    if (n < previous.current) void queryClient.invalidateQueries({ queryKey: queryKeys.feeds });
    previous.current = n;
  }, [n, queryClient]);
  if (n === 0) return null;
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      {previewsLeftText(n)}
    </p>
  );
}
