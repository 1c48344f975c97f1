import { lazy } from 'react';

/**
 * The link dialogs, each loaded when first opened: the pages a visitor reads (a public
 * collection, a link) carry none of their forms, nor does My Feed's first load. Render them
 * inside a <Suspense>.
 */
export const ShareLinkDialog = lazy(() => import('./ShareLinkDialog').then((m) => ({ default: m.ShareLinkDialog })));
export const ShareNewLinkDialog = lazy(() => import('./LinkFormDialogs').then((m) => ({ default: m.ShareNewLinkDialog })));
export const EditLinkDialog = lazy(() => import('./LinkFormDialogs').then((m) => ({ default: m.EditLinkDialog })));
export const DeleteLinkDialog = lazy(() => import('./DeleteLinkDialog').then((m) => ({ default: m.DeleteLinkDialog })));
