import { useMutation } from '@tanstack/react-query';
import { CircleCheck, Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SUPERCURATION_MESSAGES } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Field, invalidProps } from '../../../shared/ui/primitives/field';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { api, messageOf } from '../../lib/api';

/**
 * The address check, loaded once the visitor turns to the form: the validation library (zod) is
 * not part of the public page's first load.
 */
const emailSubscribeSchema = () => import('../../../shared/domain/supercurations').then((m) => m.emailSubscribeSchema);

/** Subscribe by e-mail to a public collection; after success the server's message replaces the form (SPEC §4). */
export function SubscribeBox({ supercurationId }: { supercurationId: string }) {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const subscribe = useMutation({ mutationFn: (address: string) => api.subscribeByEmail(supercurationId, address) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = (await emailSubscribeSchema()).safeParse({ email });
    if (!parsed.success) {
      setInvalid(SUPERCURATION_MESSAGES.emailInvalid);
      document.getElementById('subscribe-email')?.focus();
      return;
    }
    setInvalid(undefined);
    subscribe.mutate(parsed.data.email);
  }

  return (
    <section aria-labelledby="subscribe-heading" className="rounded-xl border bg-card p-5 shadow-sm">
      <h2 id="subscribe-heading" className="flex items-center gap-2 font-semibold">
        <Mail aria-hidden="true" className="size-4 text-primary" />
        Get updates by e-mail
      </h2>
      <div aria-live="polite">
        {subscribe.isSuccess ? (
          <p className="mt-3 flex items-start gap-2 text-sm text-emerald-800">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {subscribe.data.message || SUPERCURATION_MESSAGES.subscribeThanks}
          </p>
        ) : (
          <form noValidate onSubmit={(event) => void submit(event)} onFocus={() => void emailSubscribeSchema()} className="mt-3 grid gap-3">
            <p className="text-sm text-muted-foreground">Hear when new resources are added to this supercuration.</p>
            <Field id="subscribe-email" label="Email" error={invalid}>
              <Input
                id="subscribe-email"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                {...invalidProps('subscribe-email', invalid)}
              />
            </Field>
            <FormError message={subscribe.error && messageOf(subscribe.error, 'Failed to subscribe')} />
            <Button type="submit" disabled={subscribe.isPending}>
              {subscribe.isPending ? 'Subscribing...' : 'Subscribe'}
            </Button>
          </form>
        )}
      </div>
    </section>
  );
}
