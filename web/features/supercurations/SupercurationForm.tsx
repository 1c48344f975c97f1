import { Globe, Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/api/client';
import {
  DESCRIPTION_MAX_LENGTH,
  paths,
  SLUG_MAX_LENGTH,
  SLUG_PATTERN,
  slugify,
  SUPERCURATION_MESSAGES,
  TITLE_MAX_LENGTH,
} from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Field, invalidProps } from '../../../shared/ui/primitives/field';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { Switch } from '../../../shared/ui/primitives/switch';
import { Textarea } from '../../../shared/ui/primitives/textarea';
import { TopicPicker } from '../../../shared/ui/TopicPicker';
import { messageOf } from '../../lib/api';
import { useCreateTopic, useTopics } from '../../../shared/queries/topics';

export interface SupercurationFormValues {
  title: string;
  description: string;
  isPublic: boolean;
  /** Sent only for public collections. */
  slug?: string;
  /** Sent only when the form shows topics. */
  topics?: string[];
}

interface SupercurationFormProps {
  initial?: { title: string; description: string; isPublic: boolean; slug: string | null; topics: string[] };
  /** Topics are the owner's: collaborators don't edit them. */
  withTopics?: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Rejects with an ApiError: a taken slug shows at the URL field, others above the buttons. */
  onSubmit: (values: SupercurationFormValues) => Promise<unknown>;
  onCancel: () => void;
  /** Shown when the failure has no message of its own. */
  failureMessage: string;
}

type Errors = { title?: string; slug?: string };

/** The slug's live check (SPEC §5): only lowercase letters, digits and hyphens. */
function slugError(slug: string): string | undefined {
  if (slug === '') return undefined;
  return SLUG_PATTERN.test(slug) ? undefined : SUPERCURATION_MESSAGES.slugInvalid;
}

/**
 * Title, description, Public/Private (private by default), the URL slug when public — typed from
 * the title until the user edits it — and topics with an inline new topic. For the create page
 * and Edit details.
 */
export function SupercurationForm({
  initial,
  withTopics = true,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
  failureMessage,
}: SupercurationFormProps) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [isPublic, setIsPublic] = useState(initial?.isPublic ?? false);
  const [slug, setSlug] = useState(initial?.slug ?? slugify(initial?.title ?? ''));
  // An existing slug is kept when the title changes; a new one follows the title until edited.
  const [slugEdited, setSlugEdited] = useState(Boolean(initial?.slug));
  const [topics, setTopics] = useState<string[]>(initial?.topics ?? []);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const userTopics = useTopics(withTopics);
  const createTopic = useCreateTopic();
  const liveSlugError = isPublic ? slugError(slug) : undefined;
  const slugMessage = liveSlugError ?? errors.slug;

  function changeTitle(value: string) {
    setTitle(value);
    if (errors.title && value.trim()) setErrors((e) => ({ ...e, title: undefined }));
    if (!slugEdited) setSlug(slugify(value));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {};
    if (!title.trim()) found.title = SUPERCURATION_MESSAGES.titleRequired;
    if (isPublic) found.slug = slug.trim() ? slugError(slug.trim()) : SUPERCURATION_MESSAGES.slugRequired;
    setErrors(found);
    setFormError(null);
    if (found.title || found.slug) {
      document.getElementById(found.title ? 'supercuration-title' : 'supercuration-slug')?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit({
        title: title.trim(),
        description: description.trim(),
        isPublic,
        ...(isPublic ? { slug: slug.trim() } : {}),
        ...(withTopics ? { topics } : {}),
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'SLUG_TAKEN') {
        setErrors({ slug: err.message });
        document.getElementById('supercuration-slug')?.focus();
      } else if (err instanceof ApiError && err.message === SUPERCURATION_MESSAGES.titleRequired) {
        setErrors({ title: err.message });
      } else {
        setFormError(messageOf(err, failureMessage));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-6">
      <Field id="supercuration-title" label="Title" required error={errors.title}>
        <Input
          id="supercuration-title"
          value={title}
          onChange={(e) => changeTitle(e.target.value)}
          maxLength={TITLE_MAX_LENGTH}
          placeholder="e.g. The best of AI newsletters"
          required
          {...invalidProps('supercuration-title', errors.title)}
        />
      </Field>
      <Field id="supercuration-description" label="Description" hint="(optional)">
        <Textarea
          id="supercuration-description"
          rows={3}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={DESCRIPTION_MAX_LENGTH}
          placeholder="What is this collection about?"
        />
      </Field>

      <div className="flex items-start justify-between gap-4 rounded-lg border bg-muted/40 p-4">
        <div className="grid gap-1">
          <Label htmlFor="supercuration-public" className="flex items-center gap-2">
            {isPublic ? <Globe aria-hidden="true" className="size-4" /> : <Lock aria-hidden="true" className="size-4" />}
            Public
          </Label>
          <p id="supercuration-public-hint" className="text-sm text-muted-foreground">
            {isPublic
              ? 'Anyone can see it on its public page and in the directory.'
              : 'Private: only you and your collaborators can see it.'}
          </p>
        </div>
        <Switch
          id="supercuration-public"
          checked={isPublic}
          onCheckedChange={setIsPublic}
          aria-describedby="supercuration-public-hint"
        />
      </div>

      {isPublic && (
        <Field id="supercuration-slug" label="URL" required error={slugMessage}>
          <div className="flex min-w-0">
            <span
              aria-hidden="true"
              className="inline-flex items-center rounded-l-md border border-r-0 border-input bg-muted px-3 text-sm text-muted-foreground"
            >
              s/
            </span>
            <Input
              id="supercuration-slug"
              className="rounded-l-none"
              value={slug}
              onChange={(e) => {
                setSlug(e.target.value);
                setSlugEdited(true);
                if (errors.slug) setErrors((prev) => ({ ...prev, slug: undefined }));
              }}
              maxLength={SLUG_MAX_LENGTH}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={slugMessage ? 'supercuration-slug-error' : 'supercuration-slug-hint'}
              aria-invalid={slugMessage ? true : undefined}
            />
          </div>
          {!slugMessage && slug && (
            <p id="supercuration-slug-hint" className="truncate text-xs text-muted-foreground">
              {window.location.origin}
              {paths.shortSupercuration(slug)}
            </p>
          )}
        </Field>
      )}

      {withTopics && (
        <div className="grid gap-2">
          <p id="supercuration-topics-label" className="text-sm font-medium">
            Topics
          </p>
          <TopicPicker
            labelledBy="supercuration-topics-label"
            topics={userTopics.data ?? []}
            value={topics}
            onChange={setTopics}
            createTopic={createTopic.mutateAsync}
          />
        </div>
      )}

      <FormError message={formError} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || Boolean(liveSlugError)}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
