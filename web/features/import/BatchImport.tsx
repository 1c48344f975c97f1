import { ChevronDown, ListPlus } from 'lucide-react';
import { Suspense, lazy, useId, useState } from 'react';
import { IMPORT_MESSAGES } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Card } from '../../../shared/ui/primitives/card';
import { Loading } from '../../components/Loading';

// The import and OCR code, loaded when the panel is first opened: My Feed's first load skips it.
const ImportPanel = lazy(() => import('./ImportPanel').then((m) => ({ default: m.ImportPanel })));

/**
 * SPEC §2 'Import multiple URLs from text or image', under My Feed's add box: a toggle opening the
 * import panel. Closing it drops what was found and stops the OCR engine.
 */
export function BatchImport() {
  const [open, setOpen] = useState(false);
  const panelId = useId();

  return (
    <Card className="mt-3 p-0">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        className="flex w-full items-center gap-2 rounded-lg px-4 py-3 text-left text-sm font-medium outline-none hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring sm:px-5"
      >
        <ListPlus aria-hidden="true" className="size-4 shrink-0 text-primary" />
        <span className="min-w-0 flex-1">{IMPORT_MESSAGES.importToggle}</span>
        <ChevronDown aria-hidden="true" className={cn('size-4 shrink-0 transition-transform', open && 'rotate-180')} />
      </button>
      {open && (
        <div id={panelId} className="border-t px-4 pt-4 pb-5 sm:px-5">
          <Suspense fallback={<Loading />}>
            <ImportPanel />
          </Suspense>
        </div>
      )}
    </Card>
  );
}
