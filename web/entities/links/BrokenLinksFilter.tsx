import { CircleCheck, Link2Off } from 'lucide-react';
import { useId } from 'react';
import { brokenLinksText, LINK_HEALTH_MESSAGES } from '../../../shared/domain';
import { ToggleChip } from '../../../shared/ui/primitives/toggle-chip';
import { EmptyState } from '../../components/EmptyState';

interface BrokenLinksFilterProps {
  /** How many links of the list are broken. */
  count: number;
  pressed: boolean;
  onPressedChange: (pressed: boolean) => void;
}

/**
 * 'Broken links (n)': narrows a list to its broken links, and then says what to do about them.
 * Shown while there are some, or while it is on.
 */
export function BrokenLinksFilter({ count, pressed, onPressedChange }: BrokenLinksFilterProps) {
  const hintId = useId();
  if (count === 0 && !pressed) return null;
  return (
    <div className="grid justify-items-start gap-2">
      <ToggleChip pressed={pressed} aria-describedby={pressed ? hintId : undefined} onClick={() => onPressedChange(!pressed)}>
        <Link2Off aria-hidden="true" className="size-4" />
        {brokenLinksText(count)}
      </ToggleChip>
      {pressed && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {LINK_HEALTH_MESSAGES.filterHint}
        </p>
      )}
    </div>
  );
}

/** The empty state of a list narrowed to its broken links. */
export function NoBrokenLinks() {
  return <EmptyState icon={CircleCheck} title={LINK_HEALTH_MESSAGES.noneBroken} />;
}
