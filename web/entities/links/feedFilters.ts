import { useSearchParams } from 'react-router';
import { FORMAT_IDS, TIME_WINDOWS, type FormatId } from '../../../shared/domain';

export type FeedScope = 'mine' | 'reposts';
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/** What My Feed shows; kept in the page's search params (?tab=reposts&window=week&format=video&topic=ai&broken=1). */
export interface FeedFilters {
  scope: FeedScope;
  window: TimeWindow;
  format?: FormatId;
  topic?: string;
  /** 'Broken links (n)': only the viewer's broken links, of both tabs. */
  broken?: '1';
}

export const TIME_WINDOW_LABELS: Record<TimeWindow, string> = {
  all: 'All time',
  today: 'Today',
  week: 'This week',
  month: 'This month',
};

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

function read(params: URLSearchParams): FeedFilters {
  const filters: FeedFilters = {
    scope: params.get('tab') === 'reposts' ? 'reposts' : 'mine',
    window: oneOf(params.get('window'), TIME_WINDOWS) ?? 'all',
  };
  const format = oneOf(params.get('format'), FORMAT_IDS);
  const topic = params.get('topic');
  if (format) filters.format = format;
  if (topic) filters.topic = topic;
  if (params.get('broken') === '1') filters.broken = '1';
  return filters;
}

/** The feed's filters and a setter that writes them to the URL (replacing the entry, not adding one). */
export function useFeedFilters() {
  const [params, setParams] = useSearchParams();
  const filters = read(params);

  function update(patch: Partial<FeedFilters>) {
    const next = { ...filters, ...patch };
    const search = new URLSearchParams();
    if (next.scope === 'reposts') search.set('tab', 'reposts');
    if (next.window !== 'all') search.set('window', next.window);
    if (next.format) search.set('format', next.format);
    if (next.topic) search.set('topic', next.topic);
    if (next.broken) search.set('broken', next.broken);
    setParams(search, { replace: true });
  }

  return { filters, update };
}

/** Whether a filter beyond the tab narrows the list. */
export function isFiltered(filters: FeedFilters): boolean {
  return filters.window !== 'all' || filters.format !== undefined || filters.topic !== undefined;
}
