import { Select } from '../../shared/ui/primitives/select';

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
      <Select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </Select>
    </div>
  );
}
