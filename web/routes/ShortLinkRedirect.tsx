import { Navigate, useParams } from 'react-router';

/** /s/:slug, the short address on directory cards, is the public collection page. */
export function ShortLinkRedirect() {
  const { slug = '' } = useParams();
  return <Navigate to={`/supercurations/public/${encodeURIComponent(slug)}`} replace />;
}
