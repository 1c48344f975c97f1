import { FORMATS, type FormatId } from '../../../shared/domain';
import { ToggleChip } from '../../../shared/ui/primitives/toggle-chip';

/** 'All Formats' and the 10 formats; one at a time. Scrolls sideways on small screens. */
export function FormatFilter({ value, onChange }: { value: FormatId | undefined; onChange: (format: FormatId | undefined) => void }) {
  return (
    <div role="group" aria-label="Format" className="-mx-4 flex gap-2 overflow-x-auto px-4 py-1 sm:mx-0 sm:flex-wrap sm:px-0">
      <ToggleChip pressed={!value} onClick={() => onChange(undefined)}>
        All Formats
      </ToggleChip>
      {FORMATS.map((format) => (
        <ToggleChip key={format.id} pressed={value === format.id} onClick={() => onChange(format.id)}>
          <span aria-hidden="true">{format.emoji}</span>
          {format.label}
        </ToggleChip>
      ))}
    </div>
  );
}
