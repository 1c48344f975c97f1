import { ChevronDown } from 'lucide-react';
import { fieldClass } from '../../shared/ui/primitives/input';
import { cn } from '../../shared/ui/cn';

interface FilterSelectProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}

/** A labelled native select for a list filter (time, sort). */
export function FilterSelect<T extends string>({ id, label, value, options, labels, onChange }: FilterSelectProps<T>) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-muted-foreground">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value as T)}
          className={cn(fieldClass, 'h-9 cursor-pointer appearance-none pr-8')}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
      </div>
    </div>
  );
}
