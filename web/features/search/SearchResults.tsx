import { useInfiniteQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { SEARCH_MESSAGES, type SearchQuery } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { EmptyState } from '../../components/EmptyState';
import { ListLoadFailed, ListSkeletons } from '../../components/LoadStates';
import { api } from '../../lib/api';
import { cursorPaging } from '../../lib/paging';

const hostOf = (url: string | null) => (url ? new URL(url).hostname.replace(/^www\./, '') : null);

/** The results of a search: title (to the link's page), site and snippet; more on demand. */
export function SearchResults({ query }: { query: Omit<SearchQuery, 'cursor'> }) {
  const results = useInfiniteQuery({
    queryKey: ['search', query],
    queryFn: ({ pageParam, signal }) => api.search({ ...query, cursor: pageParam }, signal),
    ...cursorPaging,
  });
  if (results.isPending) {
    return <ListSkeletons className="grid gap-3" count={3} skeleton={(i) => <div key={i} className="h-24 animate-pulse rounded-xl bg-muted" />} />;
  }
  if (results.isError && !results.data) return <ListLoadFailed title={SEARCH_MESSAGES.searchFailed} onRetry={() => void results.refetch()} />;
  const hits = results.data.pages.flatMap((p) => p.items);
  if (hits.length === 0) return <EmptyState icon={SearchX} title={query.q ? `No results for “${query.q}”` : 'No results'} description="Try other words or fewer filters." />;
  return (
    <div className="grid gap-3">
      <ol className="grid gap-3" aria-label="Results">
        {hits.map(({ link, snippet }) => (
          <li key={link.id} className="rounded-xl border bg-card p-4">
            <h2 className="text-base font-semibold break-words">
              <Link to={`/links/${link.id}`} className="underline-offset-2 hover:underline focus-visible:underline">
                {link.title}
              </Link>
            </h2>
            {link.url && <p className="text-xs text-muted-foreground">{link.siteName ?? hostOf(link.url)}</p>}
            {/* The server escapes the snippet and adds only <mark> (server/services/search-snippet.ts). */}
            <p className="mt-2 text-sm break-words text-muted-foreground [&_mark]:rounded-sm [&_mark]:bg-yellow-200 [&_mark]:text-foreground" dangerouslySetInnerHTML={{ __html: snippet }} />
          </li>
        ))}
      </ol>
      {results.hasNextPage && (
        <Button variant="outline" className="justify-self-center" disabled={results.isFetchingNextPage} onClick={() => void results.fetchNextPage()}>
          {results.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
      {results.isFetchNextPageError && <p role="alert" className="text-center text-sm text-destructive">{SEARCH_MESSAGES.searchFailed}</p>}
    </div>
  );
}
