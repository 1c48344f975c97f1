import type { Db } from '../db';
import { enqueueMails } from './outbox';
import { renderEmail } from './render';
import { paths } from '../../shared/domain/paths';

/**
 * The e-mails of an account itself, queued in the outbox like every other mail.
 * Better Auth makes the tokens; the links point at our pages (the reset form) or at our allowed
 * verify-email endpoint, whose ending page is fixed by its query schema. These are the only mails
 * sent to a user's own address (digests and confirmations go to e-mail subscribers, addresses
 * confirmed on their own): an unverified address gets nothing but these.
 */

export interface AccountMailDeps {
  db: Db;
  publicUrl: string;
  /** Nudges the outbox worker once the mail is committed (it also polls). */
  wakeOutbox(): void;
}

/** How long a reset link works (Better Auth's resetPasswordTokenExpiresIn), in seconds. */
export const RESET_LINK_SECONDS = 3600;

async function queue(deps: AccountMailDeps, kind: 'password-reset' | 'verification', to: string, subject: string, content: Parameters<typeof renderEmail>[0]) {
  await enqueueMails(deps.db.kysely, deps.publicUrl, [{ kind, to, subject, ...renderEmail(content) }]);
  deps.wakeOutbox();
}

export function queuePasswordResetMail(deps: AccountMailDeps, to: string, token: string): Promise<void> {
  const url = `${deps.publicUrl}${paths.resetPassword}?token=${encodeURIComponent(token)}`;
  return queue(deps, 'password-reset', to, 'Reset your Supercurate password', {
    heading: 'Reset your password',
    paragraphs: [
      'Someone, hopefully you, asked to reset the password of your Supercurate account.',
      'Choose a new password with the button below. The link works once, for 1 hour; setting a new password signs out every session of your account.',
      'If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', url },
    footer: `This e-mail was sent to ${to} because a password reset was requested on Supercurate.`,
  });
}

/** A new account's address, or the new address of an e-mail change (`change` true). */
export function queueVerificationMail(deps: AccountMailDeps, to: string, token: string, change: boolean): Promise<void> {
  const url = `${deps.publicUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`;
  return queue(deps, 'verification', to, change ? 'Confirm your new Supercurate e-mail address' : 'Verify your Supercurate e-mail address', {
    heading: change ? 'Confirm your new e-mail address' : 'Verify your e-mail address',
    paragraphs: [
      change
        ? 'Someone, hopefully you, asked to use this address for a Supercurate account. The change takes effect when you open the link below.'
        : 'Welcome to Supercurate! Please confirm that this address is yours with the button below.',
      'If you did not ask for it, ignore this e-mail.',
    ],
    action: { label: change ? 'Confirm the new address' : 'Verify e-mail address', url },
    footer: `This e-mail was sent to ${to} because it was entered on Supercurate.`,
  });
}
