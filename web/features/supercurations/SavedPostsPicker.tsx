import { useInfiniteQuery } from '@tanstack/react-query';
import { Check, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { displayHost, LINK_MESSAGES, SUPERCURATION_MESSAGES, type Link } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Input } from '../../../shared/ui/primitives/input';
import { Thumbnail } from '../../../shared/ui/Thumbnail';
import { useDebouncedValue } from '../../../shared/ui/useDebouncedValue';
import { Loading } from '../../components/Loading';
import { messageOf } from '../../lib/api';
import { ThumbnailFallback } from '../../entities/links/LinkCard';
import { useResourceMutations } from './mutations';
import { linkFeedQuery } from '../../entities/links/useLinkQueries';

const SEARCH_DEBOUNCE_MS = 300;

/** 'Saved posts' of Add New Resource: the user's own links, searched on the server, each with 'Add'. */
export function SavedPostsPicker({ supercurationId }: { supercurationId: string }) {
  const [query, setQuery] = useState('');
  const q = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const filters = { scope: 'mine' as const, q: q || undefined };
  const links = useInfiniteQuery(linkFeedQuery(filters));
  const items = links.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="grid gap-3">
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          type="search"
          aria-label="Search saved posts"
          placeholder="Search your links..."
          className="pl-9"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {links.isPending ? (
        <Loading />
      ) : links.isError ? (
        <p role="alert" className="py-6 text-center text-sm text-destructive">
          {LINK_MESSAGES.fetchLinksFailed}
        </p>
      ) : items.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground">
          {q ? 'No links match your search' : "You haven't shared any links yet"}
        </p>
      ) : (
        <ul aria-label="Saved posts" className="grid max-h-[50dvh] gap-2 overflow-y-auto pr-1">
          {items.map((link) => (
            <SavedPost key={link.id} link={link} supercurationId={supercurationId} />
          ))}
          {links.hasNextPage && (
            <li className="flex justify-center py-1">
              <Button variant="ghost" size="sm" disabled={links.isFetchingNextPage} onClick={() => void links.fetchNextPage()}>
                {links.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

function SavedPost({ link, supercurationId }: { link: Link; supercurationId: string }) {
  const { add } = useResourceMutations(supercurationId);
  const added = link.supercurationIds.includes(supercurationId);
  const host = link.url ? displayHost(link.url) : null;
  return (
    <li className="flex items-center gap-3 rounded-lg border bg-background p-2">
      <Thumbnail
        src={link.thumbnailUrl}
        className="h-12 w-16 shrink-0 rounded-md border"
        fallback={<ThumbnailFallback link={link} className="h-12 w-16 text-lg sm:h-12 sm:w-16 sm:text-lg" />}
      />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{link.title}</p>
        {host && <p className="truncate text-xs text-muted-foreground">{host}</p>}
      </div>
      <Button
        variant={added ? 'ghost' : 'outline'}
        size="sm"
        disabled={added || add.isPending}
        aria-label={added ? `${link.title} is added` : `Add ${link.title}`}
        onClick={() =>
          add.mutate(
            { linkId: link.id },
            {
              onSuccess: () => toast.success('Resource added'),
              onError: (err) => toast.error(messageOf(err, SUPERCURATION_MESSAGES.addResourceFailed)),
            },
          )
        }
      >
        {added ? <Check aria-hidden="true" /> : <Plus aria-hidden="true" />}
        {added ? 'Added' : add.isPending ? 'Adding...' : 'Add'}
      </Button>
    </li>
  );
}
