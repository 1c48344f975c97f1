/**
 * Cursor paging of every list the API pages (links, collections, subscribers): start without a
 * cursor, then ask for the next one while the server says there is more.
 */
export const cursorPaging = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: { hasMore: boolean; nextCursor: string | null }) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
};
