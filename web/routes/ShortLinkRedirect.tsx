import { Navigate, useParams } from 'react-router';
import { paths } from '../../shared/domain';

/** /s/:slug, the short address on directory cards, is the public collection page. */
export function ShortLinkRedirect() {
  const { slug = '' } = useParams();
  return <Navigate to={paths.publicSupercuration(slug)} replace />;
}
