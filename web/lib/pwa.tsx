import toast from 'react-hot-toast';
import { registerSW } from 'virtual:pwa-register';
import { PWA_MESSAGES } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';

/**
 * Registers the service worker (vite.config.ts, `installable`). When a new build is deployed, its
 * worker waits; a lasting toast offers to reload into it, so nobody loses what they were typing.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const update = registerSW({
    onNeedRefresh() {
      toast(
        (t) => (
          <span className="flex flex-wrap items-center gap-3">
            {PWA_MESSAGES.updateReady}
            <Button
              size="sm"
              onClick={() => {
                toast.dismiss(t.id);
                void update(true);
              }}
            >
              {PWA_MESSAGES.reload}
            </Button>
          </span>
        ),
        { id: 'pwa-update', duration: Infinity },
      );
    },
  });
}
