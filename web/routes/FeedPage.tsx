import { Tags } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { Button } from '../../shared/ui/primitives/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../shared/ui/primitives/tabs';
import { OfflineBanner } from '../components/OfflineBanner';
import { PageHeader } from '../components/PageHeader';
import { BatchImport } from '../features/import/BatchImport';
import { AddLinkBox } from '../entities/links/AddLinkBox';
import { FeedList } from '../features/links/FeedList';
import { useFeedFilters, type FeedScope } from '../entities/links/feedFilters';
import { BrokenLinksFilter } from '../entities/links/BrokenLinksFilter';
import { useBrokenLinkCount } from '../entities/links/useLinkQueries';
import { FormatFilter } from '../features/links/FormatFilter';
import { TimeFilter } from '../features/links/TimeFilter';
import { TopicFilter } from '../features/topics/TopicFilter';
import { useTopics } from '../../shared/queries/topics';
import { useDocumentTitle } from '../lib/useDocumentTitle';

const ManageTopicsDialog = lazy(() => import('../features/topics/ManageTopicsDialog').then((m) => ({ default: m.ManageTopicsDialog })));

/** /home and /saved: My Feed. */
export function FeedPage() {
  useDocumentTitle('My Feed');
  const { filters, update } = useFeedFilters();
  const topics = useTopics();
  const broken = useBrokenLinkCount();
  const [manageTopics, setManageTopics] = useState(false);
  const clearFilters = () => update({ window: 'all', format: undefined, topic: undefined });

  return (
    <>
      <PageHeader
        title="My Feed"
        description="The links you share and repost."
        actions={
          <Button variant="outline" onClick={() => setManageTopics(true)}>
            <Tags aria-hidden="true" />
            Manage Topics
          </Button>
        }
      />
      <OfflineBanner>your feed will reload when the connection is back.</OfflineBanner>
      <AddLinkBox />
      <BatchImport />

      <Tabs value={filters.scope} onValueChange={(scope) => update({ scope: scope as FeedScope })} className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <TabsList aria-label="Feed">
            <TabsTrigger value="mine">Shared by me</TabsTrigger>
            <TabsTrigger value="reposts">My Reposts</TabsTrigger>
          </TabsList>
          <TimeFilter value={filters.window} onChange={(window) => update({ window })} />
        </div>
        <div className="mt-4 grid gap-3">
          <FormatFilter value={filters.format} onChange={(format) => update({ format })} />
          <TopicFilter topics={topics.data ?? []} value={filters.topic} onChange={(topic) => update({ topic })} />
          <BrokenLinksFilter
            count={broken.data?.count ?? 0}
            pressed={Boolean(filters.broken)}
            onPressedChange={(on) => update({ broken: on ? '1' : undefined })}
          />
        </div>
        {(['mine', 'reposts'] as const).map((scope) => (
          <TabsContent key={scope} value={scope}>
            <FeedList key={JSON.stringify(filters)} filters={filters} onClearFilters={clearFilters} />
          </TabsContent>
        ))}
      </Tabs>
      {manageTopics && (
        <Suspense fallback={null}>
          <ManageTopicsDialog open onOpenChange={setManageTopics} />
        </Suspense>
      )}
    </>
  );
}
