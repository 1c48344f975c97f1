import { FORMATS, type FormatId } from '../domain/constants';
import { ToggleChip } from './primitives/toggle-chip';

interface FormatPickerProps {
  /** Id of the element naming the group. */
  labelledBy: string;
  value: FormatId | null;
  onChange: (format: FormatId | null) => void;
}

/** One format at a time; pressing the chosen one again clears it. */
export function FormatPicker({ labelledBy, value, onChange }: FormatPickerProps) {
  return (
    <div role="group" aria-labelledby={labelledBy} className="flex flex-wrap gap-2">
      {FORMATS.map((format) => {
        const pressed = value === format.id;
        return (
          <ToggleChip key={format.id} pressed={pressed} onClick={() => onChange(pressed ? null : format.id)}>
            <span aria-hidden="true">{format.emoji}</span>
            {format.label}
          </ToggleChip>
        );
      })}
    </div>
  );
}
