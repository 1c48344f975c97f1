import { MSG, newPasswordSchema } from '../../shared/domain';

let commonPasswords: Promise<Set<string>> | undefined;

/**
 * Whether `password` is on zxcvbn-ts's list of ~49,000 common passwords (NIST SP 800-63B asks to
 * refuse those), compared case-insensitively. The list is loaded on first use (~35 ms, ~3 MB of
 * heap) and stays on the server: it would weigh ~500 kB in the web bundle.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return (await commonPasswords).has(password.toLowerCase());
}

/** A new password as the server checks it: the shared rules, and not a common password (parse it async). */
export const chosenPasswordSchema = newPasswordSchema.refine(
  async (password) => !(await isCommonPassword(password)),
  MSG.passwordCommon,
);
