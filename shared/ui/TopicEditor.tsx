import { useState, type KeyboardEvent } from 'react';
import { DEFAULT_TOPIC_COLOR, TOPIC_NAME_MAX_LENGTH } from '../domain/constants';
import { topicInputSchema, type TopicInput } from '../domain/links';
import { ColorPalette } from './ColorPalette';
import { errorText } from './errorText';
import { Button } from './primitives/button';
import { FormError } from './primitives/form-error';
import { Input } from './primitives/input';
import { Label } from './primitives/label';

interface TopicEditorProps {
  /** Prefix of the element ids; unique on the page. */
  idPrefix: string;
  initial?: TopicInput;
  submitLabel: string;
  busyLabel: string;
  /** Rejects with an Error whose message is shown inline. */
  onSubmit: (input: { name: string; color: string }) => Promise<unknown>;
  onCancel?: () => void;
  /** Empty the name after a successful submit (to add several topics in a row). */
  clearOnSuccess?: boolean;
}

/**
 * Name and colour of a topic. Not a <form>, so it can sit inside another form: Enter in the name
 * field submits the topic only.
 */
export function TopicEditor({
  idPrefix,
  initial,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
  clearOnSuccess = false,
}: TopicEditorProps) {
  const [name, setName] = useState(initial?.name ?? '');
  const [color, setColor] = useState(initial?.color ?? DEFAULT_TOPIC_COLOR);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const parsed = topicInputSchema.safeParse({ name, color });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid topic');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(parsed.data);
      if (clearOnSuccess) setName('');
    } catch (err) {
      setError(errorText(err, 'Failed to save topic'));
    } finally {
      setBusy(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && onCancel) {
      event.stopPropagation();
      onCancel();
    }
  }

  return (
    <div className="grid gap-3">
      <div className="grid gap-2">
        <Label htmlFor={`${idPrefix}-name`}>Topic name</Label>
        <Input
          id={`${idPrefix}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={onKeyDown}
          maxLength={TOPIC_NAME_MAX_LENGTH}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
        />
      </div>
      <ColorPalette name={`${idPrefix}-color`} value={color} onChange={setColor} />
      <FormError message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button size="sm" onClick={() => void submit()} disabled={busy || !name.trim()}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </div>
  );
}
