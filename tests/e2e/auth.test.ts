import { describe, expect, test } from 'vitest';
import { testDatabases } from '../support/databases';
import {
  feedHeading,
  holdRequests,
  freshAccount,
  handleOf,
  registerAndEnter,
  registerByApi,
  registerInUi,
  signInInUi,
  userBlockButton,
  visible,
  waitForPath,
} from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

for (const database of databases) {
  describe(`sign-up, sign-in and sign-out [${database.name}]`, () => {
    const e2e = useE2E(database);

    test("registering lands on 'My Feed' with the name and handle in the user block", async () => {
      const page = await e2e.open();
      await page.goto('/register');
      await visible(page.getByRole('heading', { name: 'Supercurate', level: 1 }));
      const create = page.getByRole('button', { name: 'Create account' });
      await visible(create);
      await expect.poll(() => create.isDisabled()).toBe(true);

      const account = freshAccount('Grace Hopper');
      await page.getByLabel('Full name').fill(account.name);
      await expect.poll(() => create.isDisabled()).toBe(true);
      await page.getByLabel('Email').fill(account.email);
      await expect.poll(() => create.isDisabled()).toBe(true);
      await page.getByLabel('Password').fill(account.password);
      await expect.poll(() => create.isEnabled()).toBe(true);

      // While the request is under way the button says so and cannot be pressed again.
      const held = await holdRequests(page, '**/api/auth/sign-up/email');
      await create.click();
      const busy = await visible(page.getByRole('button', { name: 'Creating account...' }));
      expect(await busy.isDisabled()).toBe(true);
      await held.release();

      await waitForPath(page, '/home');
      await visible(feedHeading(page));
      const block = await visible(userBlockButton(page, account.name));
      await visible(block.getByText(account.name, { exact: true }));
      await visible(block.getByText(handleOf(account), { exact: true }));
    });

    test("registering an e-mail already in use shows 'Email already in use'", async () => {
      const account = await registerByApi(e2e.server.url);
      const page = await e2e.open();
      await registerInUi(page, { ...account, name: 'Someone Else' });
      await visible(page.getByText('Email already in use'));
      expect(new URL(page.url()).pathname).toBe('/register');
      await visible(page.getByRole('button', { name: 'Create account' }));

      // E-mail addresses differ in case only: still the same address.
      await page.getByLabel('Email').fill(account.email.toUpperCase());
      await page.getByRole('button', { name: 'Create account' }).click();
      await visible(page.getByText('Email already in use'));
      expect(new URL(page.url()).pathname).toBe('/register');
    });

    test('a refused password says why under the password field, whether the page or the server refuses it', async () => {
      const page = await e2e.open();
      await page.goto('/register');
      const account = freshAccount();
      await page.getByLabel('Full name').fill(account.name);
      await page.getByLabel('Email').fill(account.email);
      const password = page.getByLabel('Password');
      const create = page.getByRole('button', { name: 'Create account' });
      const message = page.locator('#register-password-error');

      for (const [refused, why] of [
        [' '.repeat(8), "Password can't be only spaces"],
        // Only the server knows the common passwords.
        ['password123', 'This password is too common. Choose one that is harder to guess.'],
      ] as const) {
        await password.fill(refused);
        await create.click();
        await visible(page.getByText(why));
        expect(await message.textContent()).toBe(why);
        expect((await password.getAttribute('aria-describedby'))?.split(' ')).toContain('register-password-error');
        expect(await password.getAttribute('aria-invalid')).toBe('true');
        expect(new URL(page.url()).pathname).toBe('/register');
      }

      await password.fill(account.password);
      await create.click();
      await waitForPath(page, '/home');
    });

    test("'Already have an account?' links to sign in", async () => {
      const page = await e2e.open();
      await page.goto('/register');
      await visible(page.getByText('Already have an account?'));
      await page.getByRole('link', { name: 'Sign in' }).click();
      await waitForPath(page, '/login');
    });

    test("a wrong password shows 'Invalid email or password'; the right one enters the app", async () => {
      const account = await registerByApi(e2e.server.url);
      const page = await e2e.open();
      await signInInUi(page, { email: account.email, password: 'not-the-password' });
      await visible(page.getByText('Invalid email or password'));
      expect(new URL(page.url()).pathname).toBe('/login');

      await page.getByLabel('Password').fill(account.password);
      const held = await holdRequests(page, '**/api/auth/sign-in/email');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const busy = await visible(page.getByRole('button', { name: 'Signing in...' }));
      expect(await busy.isDisabled()).toBe(true);
      await held.release();
      await waitForPath(page, '/home');
      await visible(feedHeading(page));
      await visible(userBlockButton(page, account.name));
    });

    test("an unknown e-mail gets the same 'Invalid email or password'", async () => {
      const page = await e2e.open();
      await signInInUi(page, { email: freshAccount().email, password: 'whatever-password' });
      await visible(page.getByText('Invalid email or password'));
    });

    test("'Sign in' is disabled while the e-mail or the password is empty", async () => {
      const page = await e2e.open();
      await page.goto('/login');
      const signIn = await visible(page.getByRole('button', { name: 'Sign in' }));
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password');
      await expect.poll(() => signIn.isDisabled()).toBe(true);

      await email.fill('someone@example.com');
      await expect.poll(() => signIn.isDisabled()).toBe(true);
      await password.fill('a-password');
      await expect.poll(() => signIn.isEnabled()).toBe(true);
      await email.fill('   ');
      await expect.poll(() => signIn.isDisabled()).toBe(true);
      await email.fill('someone@example.com');
      await password.fill('');
      await expect.poll(() => signIn.isDisabled()).toBe(true);
    });

    test("'Don't have an account?' and 'Create new account' lead to /register", async () => {
      const page = await e2e.open();
      await page.goto('/login');
      await visible(page.getByText("Don't have an account?"));
      const create = await visible(page.getByRole('link', { name: 'Create new account' }));
      expect(await create.getAttribute('href')).toBe('/register');
      await create.click();
      await waitForPath(page, '/register');
      await visible(page.getByLabel('Full name'));
    });

    test('the login form works with the keyboard alone', async () => {
      const account = await registerByApi(e2e.server.url);
      const page = await e2e.open();
      await page.goto('/login');
      await visible(page.getByRole('button', { name: 'Sign in' }));

      const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
      // Tab from the top of the page until the e-mail field has the focus.
      for (let presses = 0; presses < 10 && (await focusedId()) !== 'login-email'; presses += 1) {
        await page.keyboard.press('Tab');
      }
      expect(await focusedId()).toBe('login-email');
      await page.keyboard.type(account.email);
      await page.keyboard.press('Tab');
      expect(await focusedId()).toBe('login-password');
      await page.keyboard.type(account.password);
      await page.keyboard.press('Enter');

      await waitForPath(page, '/home');
      await visible(feedHeading(page));
    });

    test('anonymous visitors of protected pages are sent to /login', async () => {
      const page = await e2e.open();
      for (const path of ['/home', '/saved', '/dashboard', '/supercurations', '/supercurations/new']) {
        await page.goto(path);
        await waitForPath(page, '/login');
        await visible(page.getByRole('button', { name: 'Sign in' }));
      }
    });

    test('signed-in visitors of /login and /register are sent to /home', async () => {
      const page = await e2e.open();
      await registerAndEnter(page);
      for (const path of ['/login', '/register']) {
        await page.goto(path);
        await waitForPath(page, '/home');
        await visible(feedHeading(page));
      }
    });

    test("'Sign out' leads to /login, keeps the user out of /home, and signing back in works", async () => {
      const page = await e2e.open();
      const account = await registerAndEnter(page);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await waitForPath(page, '/login');
      await visible(page.getByRole('button', { name: 'Sign in' }));

      await page.goto('/home');
      await waitForPath(page, '/login');
      // The session is gone on the server too, not only in the page.
      expect((await page.request.get('/api/me')).status()).toBe(401);

      await signInInUi(page, account);
      await waitForPath(page, '/home');
      await visible(feedHeading(page));
      await visible(userBlockButton(page, account.name));
    });
  });
}
