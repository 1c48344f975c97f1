import { Link } from 'react-router';
import { PageHeader } from '../components/PageHeader';
import { Button } from '../../shared/ui/primitives/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../shared/ui/primitives/card';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function NewSupercurationPage() {
  useDocumentTitle('Create Supercuration');
  return (
    <>
      <PageHeader title="Create Supercuration" />
      <Card className="max-w-2xl">
        <CardHeader>
          <CardDescription>
            Creating collections arrives with the supercurations feature. There is nothing to fill in yet.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" asChild>
            <Link to="/supercurations">Cancel</Link>
          </Button>
        </CardContent>
      </Card>
    </>
  );
}
