import { X } from 'lucide-react';
import { useState, type ChangeEvent } from 'react';
import { AVATAR_MAX_BYTES, URL_MAX_LENGTH } from '../domain/constants';

import { LINK_MESSAGES, MSG } from '../domain/messages';
import { errorText } from './errorText';
import { Button } from './primitives/button';
import { FormError } from './primitives/form-error';
import { Input } from './primitives/input';
import { Label } from './primitives/label';
import { Thumbnail } from './Thumbnail';
import { useDebouncedValue } from './useDebouncedValue';

/** The preview follows the typed URL once typing pauses (each change is a request to our proxy). */
const PREVIEW_DELAY_MS = 400;

interface ThumbnailFieldProps {
  value: string;
  onChange: (url: string) => void;
  /** Stores an image on the server (which re-encodes it) and gives its URL. */
  uploadImage: (file: File) => Promise<{ url: string }>;
  /** Origin of our server where the page is elsewhere (the extension). */
  assetBaseUrl: string;
  /** A validation message for the URL typed in. */
  invalid?: string;
  onUploadingChange: (uploading: boolean) => void;
}

/** A thumbnail given by URL or uploaded, with a preview. */
export function ThumbnailField({ value, onChange, uploadImage, assetBaseUrl, invalid, onUploadingChange }: ThumbnailFieldProps) {
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const trimmed = value.trim();
  const shown = useDebouncedValue(trimmed, PREVIEW_DELAY_MS);

  async function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) return setUploadError(MSG.imagesOnly);
    if (file.size > AVATAR_MAX_BYTES) return setUploadError(MSG.imageTooLarge);
    setUploadError(null);
    setUploading(true);
    onUploadingChange(true);
    try {
      onChange((await uploadImage(file)).url);
    } catch (err) {
      setUploadError(errorText(err, LINK_MESSAGES.uploadImageFailed));
    } finally {
      setUploading(false);
      onUploadingChange(false);
    }
  }

  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-2 text-sm font-medium">Thumbnail</legend>
      <div className="flex items-start gap-3">
        <Thumbnail
          src={shown}
          baseUrl={assetBaseUrl}
          alt="Thumbnail preview"
          className="h-16 w-24 shrink-0 rounded-md border"
        />
        <div className="grid min-w-0 flex-1 gap-2">
          <Label htmlFor="share-thumbnail" className="sr-only">
            Thumbnail URL
          </Label>
          <Input
            id="share-thumbnail"
            inputMode="url"
            placeholder="https://... or upload an image"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            maxLength={URL_MAX_LENGTH}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? 'share-thumbnail-error' : undefined}
          />
          <div className="flex flex-wrap gap-2">
            <input
              id="share-thumbnail-file"
              type="file"
              accept="image/*"
              className="peer sr-only"
              disabled={uploading}
              onChange={(e) => void onFileChange(e)}
            />
            <Label
              htmlFor="share-thumbnail-file"
              className="inline-flex h-8 cursor-pointer items-center rounded-md border border-input bg-card px-3 text-xs shadow-sm transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-disabled:cursor-wait hover:bg-muted"
            >
              {uploading ? 'Uploading...' : 'Upload image'}
            </Label>
            {trimmed && (
              <Button variant="ghost" size="sm" onClick={() => onChange('')} disabled={uploading}>
                <X aria-hidden="true" />
                Remove thumbnail
              </Button>
            )}
          </div>
        </div>
      </div>
      {invalid && (
        <p id="share-thumbnail-error" className="text-sm text-destructive">
          {invalid}
        </p>
      )}
      <FormError message={uploadError} />
    </fieldset>
  );
}
