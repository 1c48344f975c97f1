import { FOCUS_CATEGORIES, FOCUS_LABELS, type FocusCategory } from '../../../shared/domain';
import { ToggleChip } from '../../../shared/ui/primitives/toggle-chip';

/** The directory's 20 'Focus' categories (one at a time; pressing the chosen one again clears it). */
export function FocusFilter({ value, onChange }: { value: FocusCategory | undefined; onChange: (focus?: FocusCategory) => void }) {
  return (
    <section aria-labelledby="focus-heading" className="min-w-0">
      <h2 id="focus-heading" className="mb-3 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
        Focus
      </h2>
      <ul className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0 lg:flex-col lg:items-start">
        <li>
          <ToggleChip pressed={!value} onClick={() => onChange(undefined)}>
            All
          </ToggleChip>
        </li>
        {FOCUS_CATEGORIES.map((category) => (
          <li key={category}>
            <ToggleChip pressed={value === category} onClick={() => onChange(value === category ? undefined : category)}>
              {FOCUS_LABELS[category]}
            </ToggleChip>
          </li>
        ))}
      </ul>
    </section>
  );
}
