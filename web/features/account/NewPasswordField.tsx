import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/domain';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';

/** A new password's input with the rules as a hint and why the server refused it (e.g. too common) under it. */
export function NewPasswordField({
  id,
  label,
  value,
  onChange,
  problem,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        aria-describedby={problem ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={problem ? true : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        At least {PASSWORD_MIN_LENGTH} characters, and not a commonly used password
      </p>
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
