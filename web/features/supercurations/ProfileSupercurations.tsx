import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { Layers } from 'lucide-react';
import { useState } from 'react';
import { paths, SUPERCURATION_MESSAGES } from '../../../shared/domain';
import { EmptyState } from '../../components/EmptyState';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { SupercurationCard } from './SupercurationCard';
import { SupercurationResults } from './SupercurationResults';
import { ViewToggle, type ViewMode } from './ViewToggle';
import { cursorPaging } from '../../lib/paging';

/** A user's public collections, a page at a time (also prefetched by the server render). */
export const userSupercurationsQuery = (userId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.userSupercurations(userId),
    queryFn: ({ pageParam, signal }) => api.userSupercurations(userId, pageParam, signal),
    ...cursorPaging,
  });

/** A profile's 'Public Supercurations', in a grid or a list; cards open the public pages. */
export function ProfileSupercurations({ userId }: { userId: string }) {
  const [view, setView] = useState<ViewMode>('grid');
  const list = useInfiniteQuery(userSupercurationsQuery(userId));
  return (
    <section aria-labelledby="public-supercurations" className="mt-10 grid gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id="public-supercurations" className="text-lg font-semibold">
          Public Supercurations
        </h2>
        <ViewToggle value={view} onChange={setView} />
      </div>
      <SupercurationResults
        query={list}
        label="Public Supercurations"
        layout={view}
        skeletons={3}
        renderCard={(s) => <SupercurationCard supercuration={s} layout={view} to={s.slug ? paths.publicSupercuration(s.slug) : '#'} />}
        empty={<EmptyState icon={Layers} title={SUPERCURATION_MESSAGES.noPublic} level={3} />}
      />
    </section>
  );
}
