import { WifiOff } from 'lucide-react';
import { useOnlineStatus } from '../lib/useOnlineStatus';

/** 'You are offline' while the browser has no network; requests wait and resume on reconnect. */
export function OfflineBanner({ children }: { children?: string }) {
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <div role="status" className="mb-4 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <WifiOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        <span className="font-semibold">You are offline</span>
        {children && <span className="text-amber-900"> — {children}</span>}
      </p>
    </div>
  );
}
