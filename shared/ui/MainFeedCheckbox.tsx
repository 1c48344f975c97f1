
import { Checkbox } from './primitives/checkbox';
import { Label } from './primitives/label';
import { LINK_MESSAGES } from '../domain/messages';

interface MainFeedCheckboxProps {
  id: string;
  /** Checked = "Don't add to main feed". */
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Says under the box that the link stays private (it is kept out of the feed and every chosen collection is private). */
  staysPrivate: boolean;
}

/** "Don't add to main feed", in Preview & Share and the import's batch settings. */
export function MainFeedCheckbox({ id, checked, onChange, staysPrivate }: MainFeedCheckboxProps) {
  const hintId = `${id}-hint`;
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        className="mt-0.5"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={staysPrivate ? hintId : undefined}
      />
      <div className="grid gap-1">
        <Label htmlFor={id}>Don&apos;t add to main feed</Label>
        {staysPrivate && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {LINK_MESSAGES.staysPrivate}
          </p>
        )}
      </div>
    </div>
  );
}
