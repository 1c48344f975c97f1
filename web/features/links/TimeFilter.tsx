import { TIME_WINDOWS } from '../../../shared/domain';
import { FilterSelect } from '../../components/FilterSelect';
import { TIME_WINDOW_LABELS, type TimeWindow } from '../../entities/links/feedFilters';

/** All time, Today, This week, This month. */
export function TimeFilter({ value, onChange }: { value: TimeWindow; onChange: (window: TimeWindow) => void }) {
  return (
    <FilterSelect id="feed-time" label="Time" value={value} options={TIME_WINDOWS} labels={TIME_WINDOW_LABELS} onChange={onChange} />
  );
}
