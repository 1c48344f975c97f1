import { useEffect } from 'react';

const APP_TITLE = 'Supercurate — Internet. Curated.';

/** Sets the tab title to "{title} · Supercurate", or the app's own title when there is none. */
export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} · Supercurate` : APP_TITLE;
  }, [title]);
}
