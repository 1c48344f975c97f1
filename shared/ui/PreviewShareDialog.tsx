import { useState, type FormEvent, type ReactNode } from 'react';
import {
  DEFAULT_LINK_TEXT,
  DESCRIPTION_MAX_LENGTH,
  LINK_TEXT_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  URL_MAX_LENGTH,
} from '../domain/constants';
import { type CreateLinkInput, privateByDefault, type Topic, type TopicInput } from '../domain/links';
import { errorText } from './errorText';
import { FormatPicker } from './FormatPicker';
import { MainFeedCheckbox } from './MainFeedCheckbox';
import { Button } from './primitives/button';
import { Checkbox } from './primitives/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './primitives/dialog';
import { Field, invalidProps } from './primitives/field';
import { FormError } from './primitives/form-error';
import { Input } from './primitives/input';
import { Label } from './primitives/label';
import { Textarea } from './primitives/textarea';
import {
  EMPTY_SHARE_FORM,
  FIELD_IDS,
  sharesToMainFeed,
  toLinkInput,
  validateLinkInput,
  type FieldErrors,
  type ShareFormValues,
} from './shareForm';
import { SupercurationPicker, type SupercurationOption } from './SupercurationPicker';
import { ThumbnailField } from './ThumbnailField';
import { TopicPicker } from './TopicPicker';
import { LINK_MESSAGES } from '../domain/messages';

export type { ShareFormValues } from './shareForm';
export type { SupercurationOption } from './SupercurationPicker';

export interface PreviewShareDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'edit' titles the dialog 'Edit link' and submits with 'Update'. */
  mode?: 'create' | 'edit';
  /** The starting values (a link preview, or the link being edited); read each time the dialog opens. */
  initialValues?: Partial<ShareFormValues>;
  topics: Topic[];
  /** The section 'Add to Supercurations' is shown only when there are some. */
  supercurations?: SupercurationOption[];
  /** The collection a new link is shared into besides those picked (a collection's 'Add New Resource'). */
  into?: SupercurationOption;
  /**
   * Saves the link; the dialog closes when it resolves. It, uploadImage and createTopic reject with
   * an Error whose message is user-facing; the dialog shows it inline.
   */
  onSubmit: (input: CreateLinkInput) => Promise<unknown>;
  uploadImage: (file: File) => Promise<{ url: string }>;
  createTopic: (input: TopicInput) => Promise<Topic>;
  /** Origin of our server, to show thumbnails (uploads, proxied images) where the page is elsewhere (the extension). */
  assetBaseUrl?: string;
  /** More of the form, after the topics (e.g. a collection's tags for one of its resources). */
  children?: ReactNode;
}

/** The Preview & Share modal of SPEC §2: shares a new link or (mode 'edit') updates one. */
export function PreviewShareDialog({ open, onOpenChange, mode = 'create', ...formProps }: PreviewShareDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{mode === 'edit' ? 'Edit link' : 'Preview & Share'}</DialogTitle>
          <DialogDescription>
            {mode === 'edit'
              ? 'Change the details, format and topics of this link.'
              : 'Check the details, pick a format and topics, then share it to your feed.'}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from initialValues. */}
        <ShareForm mode={mode} onDone={() => onOpenChange(false)} {...formProps} />
      </DialogContent>
    </Dialog>
  );
}

export type ShareFormProps = Omit<PreviewShareDialogProps, 'open' | 'onOpenChange' | 'mode'> & {
  mode: 'create' | 'edit';
  onDone: () => void;
};

/**
 * The dialog's form. The extension renders it as a page, inside a bare `<Dialog open>` root (no
 * modal content) so that Cancel still reports `onOpenChange(false)`.
 */
export function ShareForm({
  mode,
  onDone,
  initialValues,
  topics,
  supercurations = [],
  into,
  onSubmit,
  uploadImage,
  createTopic,
  assetBaseUrl = '',
  children,
}: ShareFormProps) {
  const [values, setValues] = useState<ShareFormValues>({ ...EMPTY_SHARE_FORM, ...initialValues });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const set = <K extends keyof ShareFormValues>(key: K, value: ShareFormValues[K]) =>
    setValues((prev) => ({ ...prev, [key]: value }));
  // Where a new link goes; editing leaves its main feed setting alone.
  const chosen = [...(into ? [into] : []), ...supercurations.filter((s) => values.supercurationIds.includes(s.id))];
  const toMainFeed = sharesToMainFeed(values, chosen);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = toLinkInput(values, supercurations.length > 0, mode === 'create' ? toMainFeed : undefined);
    const found = validateLinkInput(input);
    setErrors(found.fields);
    setFormError(found.form);
    const first = Object.entries(FIELD_IDS).find(([name]) => found.fields[name as keyof FieldErrors]);
    if (first) document.getElementById(first[1])?.focus();
    if (first || found.form) return;

    setBusy(true);
    try {
      await onSubmit(input);
      onDone();
    } catch (err) {
      setFormError(errorText(err, mode === 'edit' ? LINK_MESSAGES.updateLinkFailed : LINK_MESSAGES.shareLinkFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-5">
      <Field id="share-title" label="Title" required error={errors.title}>
        <Input
          id="share-title"
          value={values.title}
          onChange={(e) => set('title', e.target.value)}
          required
          maxLength={TITLE_MAX_LENGTH}
          {...invalidProps('share-title', errors.title)}
        />
      </Field>
      <Field id="share-description" label="Description" required error={errors.description}>
        <Textarea
          id="share-description"
          rows={4}
          value={values.description}
          onChange={(e) => set('description', e.target.value)}
          required
          maxLength={DESCRIPTION_MAX_LENGTH}
          {...invalidProps('share-description', errors.description)}
        />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="share-url" label="URL" hint="(optional)" error={errors.url}>
          <Input
            id="share-url"
            inputMode="url"
            placeholder="https://..."
            value={values.url}
            onChange={(e) => set('url', e.target.value)}
            maxLength={URL_MAX_LENGTH}
            {...invalidProps('share-url', errors.url)}
          />
        </Field>
        <Field id="share-link-text" label="Link button text" error={errors.linkText}>
          <Input
            id="share-link-text"
            placeholder={DEFAULT_LINK_TEXT}
            value={values.linkText}
            onChange={(e) => set('linkText', e.target.value)}
            maxLength={LINK_TEXT_MAX_LENGTH}
            {...invalidProps('share-link-text', errors.linkText)}
          />
        </Field>
      </div>

      <ThumbnailField
        value={values.thumbnailUrl}
        onChange={(url) => set('thumbnailUrl', url)}
        uploadImage={uploadImage}
        assetBaseUrl={assetBaseUrl}
        invalid={errors.thumbnailUrl}
        onUploadingChange={setUploading}
      />

      <div className="flex items-start gap-3">
        <Checkbox
          id="share-original"
          className="mt-0.5"
          checked={values.isOriginalContent}
          onChange={(e) => set('isOriginalContent', e.target.checked)}
          aria-describedby="share-original-hint"
        />
        <div className="grid gap-1">
          <Label htmlFor="share-original">Original content</Label>
          <p id="share-original-hint" className="text-xs text-muted-foreground">
            You made this yourself. It gets an ORIGINAL badge.
          </p>
        </div>
      </div>

      <div className="grid gap-2">
        <p id="share-format-label" className="text-sm font-medium">
          Format
        </p>
        <FormatPicker labelledBy="share-format-label" value={values.format} onChange={(f) => set('format', f)} />
      </div>

      <div className="grid gap-2">
        <p id="share-topics-label" className="text-sm font-medium">
          Topics
        </p>
        <TopicPicker
          labelledBy="share-topics-label"
          topics={topics}
          value={values.topicIds}
          onChange={(ids) => set('topicIds', ids)}
          createTopic={createTopic}
        />
      </div>

      {supercurations.length > 0 && (
        <SupercurationPicker
          options={supercurations}
          value={values.supercurationIds}
          onChange={(ids) => set('supercurationIds', ids)}
        />
      )}

      {mode === 'create' && (
        <MainFeedCheckbox
          id="share-not-in-main-feed"
          checked={!toMainFeed}
          onChange={(hide) => set('inMainFeed', !hide)}
          staysPrivate={!toMainFeed && privateByDefault(chosen)}
        />
      )}

      {children}

      <FormError message={formError} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={busy || uploading}>
          {mode === 'edit' ? (busy ? 'Updating...' : 'Update') : busy ? 'Sharing...' : 'Share'}
        </Button>
      </DialogFooter>
    </form>
  );
}
