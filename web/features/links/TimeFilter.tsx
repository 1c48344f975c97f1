import { ChevronDown } from 'lucide-react';
import { TIME_WINDOWS } from '../../../shared/domain';
import { fieldClass } from '../../../shared/ui/primitives/input';
import { cn } from '../../../shared/ui/cn';
import { TIME_WINDOW_LABELS, type TimeWindow } from './feedFilters';

/** All time, Today, This week, This month. */
export function TimeFilter({ value, onChange }: { value: TimeWindow; onChange: (window: TimeWindow) => void }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="feed-time" className="text-sm font-medium text-muted-foreground">
        Time
      </label>
      <div className="relative">
        <select
          id="feed-time"
          value={value}
          onChange={(e) => onChange(e.target.value as TimeWindow)}
          className={cn(fieldClass, 'h-9 cursor-pointer appearance-none pr-8')}
        >
          {TIME_WINDOWS.map((w) => (
            <option key={w} value={w}>
              {TIME_WINDOW_LABELS[w]}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      </div>
    </div>
  );
}
