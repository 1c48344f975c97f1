import { Checkbox } from './primitives/checkbox';

/** A collection the user created, offered under 'Add to Supercurations'. */
export interface SupercurationOption {
  id: string;
  title: string;
  isPublic: boolean;
}

interface SupercurationPickerProps {
  options: SupercurationOption[];
  value: string[];
  onChange: (ids: string[]) => void;
}

/** 'Add to Supercurations': a checkbox per collection. */
export function SupercurationPicker({ options, value, onChange }: SupercurationPickerProps) {
  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-2 text-sm font-medium">Add to Supercurations</legend>
      <div className="grid max-h-40 gap-2 overflow-y-auto">
        {options.map((s) => (
          <label key={s.id} className="flex items-center gap-3 text-sm">
            <Checkbox
              checked={value.includes(s.id)}
              onChange={(e) => onChange(e.target.checked ? [...value, s.id] : value.filter((id) => id !== s.id))}
            />
            <span className="min-w-0 truncate">{s.title}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
