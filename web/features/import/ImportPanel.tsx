import { ClipboardPaste, ImageUp, LoaderCircle, Search } from 'lucide-react';
import { useEffect, useState, type ClipboardEvent, type DragEvent } from 'react';
import { BOOKMARK_MESSAGES, IMPORT_MESSAGES, extractUrls, recognisingText } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Label } from '../../../shared/ui/primitives/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../shared/ui/primitives/tabs';
import { Textarea } from '../../../shared/ui/primitives/textarea';
import { BookmarksImport } from './BookmarksImport';
import { FeedImport } from './FeedImport';
import { FoundUrls } from './FoundUrls';
import { type OcrProgress, preloadOcr, recogniseImage, stopOcr } from './ocr';

type Source = 'text' | 'image' | 'bookmarks' | 'feed';
type Notice = { kind: 'error' | 'info'; text: string } | null;

const imageOf = (files: FileList | File[] | null | undefined) =>
  [...(files ?? [])].find((f) => f.type.startsWith('image/')) ?? null;

/**
 * The import panel: find URLs in pasted text (or the clipboard's) or in a screenshot read by OCR,
 * then list them for sharing (FoundUrls). URLs found again are not listed twice.
 */
export function ImportPanel() {
  const [source, setSource] = useState<Source>('text');
  const [text, setText] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [ocr, setOcr] = useState<OcrProgress | null>(null);
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [found, setFound] = useState<string[]>([]);
  const [announcement, setAnnouncement] = useState('');

  // The OCR engine (a worker with ~20 MB of WebAssembly and data) goes when the panel does.
  useEffect(() => stopOcr, []);
  useEffect(() => (imageUrl ? () => URL.revokeObjectURL(imageUrl) : undefined), [imageUrl]);

  function changeSource(next: string) {
    setSource(next as Source);
    if (next === 'image') preloadOcr();
  }

  /** Lists the URLs in `value`; answers whether there were any. */
  function findUrls(value: string): boolean {
    let urls: string[];
    try {
      urls = extractUrls(value);
    } catch {
      setNotice({ kind: 'error', text: IMPORT_MESSAGES.processFailed });
      return false;
    }
    if (urls.length === 0) {
      setNotice({ kind: 'error', text: IMPORT_MESSAGES.noUrlsFound });
      return false;
    }
    setNotice(null);
    setFound((prev) => [...prev, ...urls.filter((u) => !prev.includes(u))]);
    setAnnouncement(`${urls.length} ${urls.length === 1 ? 'URL' : 'URLs'} found`);
    return true;
  }

  async function pasteFromClipboard() {
    setNotice(null);
    try {
      if (!navigator.clipboard?.readText) throw new Error('no clipboard');
      const pasted = await navigator.clipboard.readText();
      if (pasted.trim()) {
        setText(pasted);
        findUrls(pasted);
        return;
      }
      // No text: perhaps a copied screenshot.
      const items = navigator.clipboard.read ? await navigator.clipboard.read() : [];
      for (const item of items) {
        const type = item.types.find((t) => t.startsWith('image/'));
        if (type) {
          await readImage(new File([await item.getType(type)], 'clipboard', { type }));
          return;
        }
      }
      setNotice({ kind: 'info', text: IMPORT_MESSAGES.clipboardEmpty });
    } catch {
      setNotice({ kind: 'info', text: IMPORT_MESSAGES.clipboardDenied });
    }
  }

  async function readImage(file: File | null) {
    if (!file || !file.type.startsWith('image/')) {
      setNotice({ kind: 'error', text: IMPORT_MESSAGES.notAnImage });
      return;
    }
    setSource('image');
    setNotice(null);
    setImageUrl(URL.createObjectURL(file));
    setOcr({ stage: 'loading' });
    try {
      const recognised = (await recogniseImage(file, setOcr)).trim();
      // The text read goes to the Text tab, where OCR slips can be corrected and searched again.
      setText(recognised);
      findUrls(recognised);
    } catch {
      setNotice({ kind: 'error', text: IMPORT_MESSAGES.extractFailed });
    } finally {
      setOcr(null);
    }
  }

  /** A pasted image anywhere in the panel is read (text pastes go to the text box as usual). */
  function onPaste(event: ClipboardEvent) {
    const image = imageOf(event.clipboardData.files);
    if (!image || ocr) return;
    event.preventDefault();
    void readImage(image);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!ocr) void readImage(imageOf(event.dataTransfer.files) ?? event.dataTransfer.files[0] ?? null);
  }

  const busy = ocr !== null;
  const progressText = ocr ? (ocr.stage === 'loading' ? IMPORT_MESSAGES.loadingOcr : recognisingText(ocr.percent)) : null;

  return (
    <div onPaste={onPaste} className="grid min-w-0 grid-cols-1 gap-5">
      <Tabs value={source} onValueChange={changeSource}>
        <TabsList aria-label="Import from" className="w-full sm:w-auto">
          <TabsTrigger value="text" className="flex-1 sm:flex-none">
            Text
          </TabsTrigger>
          <TabsTrigger value="image" className="flex-1 sm:flex-none">
            Image
          </TabsTrigger>
          <TabsTrigger value="bookmarks" className="flex-1 sm:flex-none">
            {BOOKMARK_MESSAGES.fileLabel}
          </TabsTrigger>
          <TabsTrigger value="feed" className="flex-1 sm:flex-none">
            Feed
          </TabsTrigger>
        </TabsList>

        <TabsContent value="text" className="mt-4 grid grid-cols-1 gap-3">
          <Label htmlFor="import-text">Text with URLs</Label>
          <Textarea
            id="import-text"
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Paste a newsletter, a chat, a list of links..."
            aria-describedby="import-text-hint"
          />
          <p id="import-text-hint" className="text-xs text-muted-foreground">
            Links, www. addresses and domains with a path (example.com/post) are found.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" onClick={() => void pasteFromClipboard()} disabled={busy}>
              <ClipboardPaste aria-hidden="true" />
              Paste from clipboard
            </Button>
            <Button type="button" onClick={() => findUrls(text)} disabled={busy || !text.trim()}>
              <Search aria-hidden="true" />
              Find URLs
            </Button>
          </div>
        </TabsContent>

        <TabsContent value="image" className="mt-4">
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={cn(
              'grid justify-items-center gap-3 rounded-lg border-2 border-dashed px-4 py-6 text-center',
              dragging ? 'border-primary bg-primary/5' : 'border-input',
            )}
          >
            {imageUrl ? (
              <img src={imageUrl} alt="The screenshot being read" className="max-h-40 max-w-full rounded-md border object-contain" />
            ) : (
              <ImageUp aria-hidden="true" className="size-8 text-muted-foreground" />
            )}
            <p id="import-image-hint" className="text-sm text-muted-foreground">
              Drop a screenshot here, paste one (Ctrl+V), or choose a file. Its text is read in your browser.
            </p>
            <input
              id="import-image"
              type="file"
              accept="image/*"
              className="peer sr-only"
              disabled={busy}
              aria-describedby="import-image-hint"
              onChange={(e) => {
                void readImage(imageOf(e.target.files) ?? e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
            />
            <Label
              htmlFor="import-image"
              className={cn(
                'inline-flex h-10 cursor-pointer items-center gap-2 rounded-md bg-primary px-4 text-sm text-primary-foreground shadow-sm transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 hover:bg-primary/90',
                busy && 'pointer-events-none opacity-50',
              )}
            >
              <ImageUp aria-hidden="true" className="size-4" />
              Upload screenshot
            </Label>
          </div>
        </TabsContent>

        <TabsContent value="bookmarks" className="mt-4">
          <BookmarksImport />
        </TabsContent>

        <TabsContent value="feed" className="mt-4">
          <FeedImport />
        </TabsContent>
      </Tabs>

      <div aria-live="polite" className="grid gap-2 empty:hidden">
        {progressText && (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            {progressText}
          </p>
        )}
        {notice?.kind === 'info' && <p className="text-sm text-muted-foreground">{notice.text}</p>}
        {!busy && announcement && found.length > 0 && <span className="sr-only">{announcement}</span>}
      </div>
      {notice?.kind === 'error' && <FormError message={notice.text} />}

      {found.length > 0 && (
        <FoundUrls
          urls={found}
          onRemove={(url) => setFound((prev) => prev.filter((u) => u !== url))}
          onShared={() => {
            setFound([]);
            setText('');
            setImageUrl(null);
            setAnnouncement('');
          }}
        />
      )}
    </div>
  );
}
