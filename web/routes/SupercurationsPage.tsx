import { Layers, Plus, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { paths, SUPERCURATION_MESSAGES } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { ToggleChip } from '../../shared/ui/primitives/toggle-chip';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { useSupercurationList } from '../features/supercurations/queries';
import { SupercurationCard } from '../features/supercurations/SupercurationCard';
import { SupercurationResults } from '../features/supercurations/SupercurationResults';
import { TopicFilter } from '../features/topics/TopicFilter';
import { useTopics } from '../../shared/queries/topics';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useQueryParams } from '../lib/useQueryParams';

/** /supercurations: own and collaborating collections and others' public ones; ?scope=mine&topic=ai. */
export function SupercurationsPage() {
  useDocumentTitle('My Supercurations');
  const [params, setParam] = useQueryParams();
  const scope = params.get('scope') === 'mine' ? 'mine' : 'all';
  const topic = params.get('topic') ?? undefined;
  const topics = useTopics();
  const list = useSupercurationList({ scope, topic });


  return (
    <>
      <PageHeader
        title="My Supercurations"
        description="Collections of links you curate, privately or for everyone."
        actions={
          <Button asChild>
            <Link to="/supercurations/new">
              <Plus aria-hidden="true" />
              New Supercuration
            </Link>
          </Button>
        }
      />
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div role="group" aria-label="Show" className="flex gap-2">
          <ToggleChip pressed={scope === 'all'} onClick={() => setParam('scope', undefined)}>
            All
          </ToggleChip>
          <ToggleChip pressed={scope === 'mine'} onClick={() => setParam('scope', 'mine')}>
            Mine
          </ToggleChip>
        </div>
        <TopicFilter topics={topics.data ?? []} value={topic} onChange={(id) => setParam('topic', id)} />
      </div>
      <SupercurationResults
        query={list}
        label="Supercurations"
        skeletons={6}
        renderCard={(s) => (
          <SupercurationCard
            supercuration={s}
            manage={s.canEdit}
            to={s.canEdit || !s.slug ? paths.supercuration(s.id) : paths.publicSupercuration(s.slug)}
          />
        )}
        empty={
          topic ? (
            <EmptyState icon={SearchX} title={SUPERCURATION_MESSAGES.noneFound} description="Try another topic.">
              <Button variant="outline" onClick={() => setParam('topic', undefined)}>
                Clear filter
              </Button>
            </EmptyState>
          ) : (
            <EmptyState
              icon={Layers}
              title="No supercurations yet"
              description="Create your first supercuration to group links into a collection you can share."
            >
              <Button asChild>
                <Link to="/supercurations/new">
                  <Plus aria-hidden="true" />
                  New Supercuration
                </Link>
              </Button>
            </EmptyState>
          )
        }
      />
    </>
  );
}
