import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { SUPERCURATION_MESSAGES } from '../../shared/domain';
import { Card } from '../../shared/ui/primitives/card';
import { PageHeader } from '../components/PageHeader';
import { useCreateSupercuration } from '../features/supercurations/mutations';
import { SupercurationForm } from '../features/supercurations/SupercurationForm';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /supercurations/new: the create form; success goes back to My Supercurations. */
export function NewSupercurationPage() {
  useDocumentTitle('Create Supercuration');
  const navigate = useNavigate();
  const create = useCreateSupercuration();
  return (
    <>
      <PageHeader title="Create Supercuration" description="Group links into a collection, for yourself or for everyone." />
      <Card className="max-w-2xl p-5 sm:p-6">
        <SupercurationForm
          submitLabel="Create Supercuration"
          busyLabel="Creating..."
          failureMessage={SUPERCURATION_MESSAGES.createFailed}
          onCancel={() => navigate('/supercurations')}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            toast.success('Supercuration created');
            navigate('/supercurations');
          }}
        />
      </Card>
    </>
  );
}
