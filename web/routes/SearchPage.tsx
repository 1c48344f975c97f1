import { useQuery } from '@tanstack/react-query';
import { FORMAT_IDS, type FormatId } from '../../shared/domain';
import { queryKeys } from '../../shared/queries/keys';
import { useTopics } from '../../shared/queries/topics';
import { Input } from '../../shared/ui/primitives/input';
import { Select } from '../../shared/ui/primitives/select';
import { PageHeader } from '../components/PageHeader';
import { FormatFilter } from '../features/links/FormatFilter';
import { SearchResults } from '../features/search/SearchResults';
import { TopicFilter } from '../features/topics/TopicFilter';
import { api } from '../lib/api';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useQueryParams } from '../lib/useQueryParams';

const formatOf = (v: string | null) => (FORMAT_IDS as readonly string[]).includes(v ?? '') ? (v as FormatId) : undefined;

/** /search?q=…: my links and my collections' resources, with format, topic, collection and date filters. */
export function SearchPage() {
  const [params, setParam] = useQueryParams();
  const q = params.get('q')?.trim() ?? '';
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  const topics = useTopics();
  const collections = useQuery({ queryKey: queryKeys.supercurationChoices, queryFn: ({ signal }) => api.mySupercurationChoices(signal), staleTime: 60_000 });
  const query = {
    q,
    format: formatOf(params.get('format')),
    topic: params.get('topic') || undefined,
    collection: params.get('collection') || undefined,
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
  };
  const filtered = Boolean(query.format || query.topic || query.collection || query.from || query.to);
  return (
    <>
      <PageHeader title="Search" description="Your links and the resources of the supercurations you edit." />
      <div className="mb-4 grid gap-3">
        <FormatFilter value={query.format} onChange={(format) => setParam('format', format)} />
        <TopicFilter topics={topics.data ?? []} value={query.topic} onChange={(topic) => setParam('topic', topic)} />
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm font-medium text-muted-foreground">
            Supercuration
            <Select value={query.collection ?? ''} onChange={(e) => setParam('collection', e.target.value)}>
              <option value="">All</option>
              {(collections.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </Select>
          </label>
          <label className="grid gap-1 text-sm font-medium text-muted-foreground">
            Saved from
            <Input type="date" value={query.from ?? ''} max={query.to} onChange={(e) => setParam('from', e.target.value)} />
          </label>
          <label className="grid gap-1 text-sm font-medium text-muted-foreground">
            Saved until
            <Input type="date" value={query.to ?? ''} min={query.from} onChange={(e) => setParam('to', e.target.value)} />
          </label>
        </div>
      </div>
      {q || filtered ? (
        <SearchResults key={JSON.stringify(query)} query={query} />
      ) : (
        <p className="text-sm text-muted-foreground">
          Type in the search box. Whole words match; try <code>photo*</code> for words that begin so, <code>"exact phrase"</code>,{' '}
          <code>-word</code>, <code>site:example.com</code>, <code>topic:name</code> or <code>in:"supercuration title"</code>.
        </p>
      )}
    </>
  );
}
