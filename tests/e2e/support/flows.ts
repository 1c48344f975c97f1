import type { Locator, Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import { newUser, testClient } from '../../support/client';

export interface Account {
  name: string;
  email: string;
  password: string;
}

/** A unique account nobody has registered yet. */
export function freshAccount(name = 'Ada Lovelace'): Account {
  return newUser(name);
}

/** The handle the UI shows: '@' and the part of the e-mail before the @. */
export function handleOf(account: Account): string {
  return `@${account.email.split('@')[0]}`;
}

/** Registers an account through the API (for tests whose subject is not registration). */
export async function registerByApi(baseUrl: string, account: Account = freshAccount()): Promise<Account> {
  await testClient(baseUrl).api.signUp(account);
  return account;
}

/** Resolves once the page's path is `path` (client-side navigations included). */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

export async function visible(locator: Locator): Promise<Locator> {
  await locator.waitFor({ state: 'visible' });
  return locator;
}

/** The 'My Feed' page heading: the sign of being inside the app. */
export function feedHeading(page: Page): Locator {
  return page.getByRole('heading', { name: 'My Feed', level: 1 });
}

export async function registerInUi(page: Page, account: Account): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Full name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

export async function signInInUi(page: Page, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Registers in the UI and waits for My Feed. */
export async function registerAndEnter(page: Page, account: Account = freshAccount()): Promise<Account> {
  await registerInUi(page, account);
  await waitForPath(page, '/home');
  await visible(feedHeading(page));
  return account;
}

/** The button of the user block that opens Edit profile (its name carries the user's name and handle). */
export function userBlockButton(page: Page, name?: string): Locator {
  return page.getByRole('button', { name: name ? `Edit profile: ${name}` : /^Edit profile/ });
}

/**
 * Holds the page's requests matching `pattern` until `release()`, to see the UI while they are
 * under way. `release()` lets them through and stops holding new ones.
 */
export async function holdRequests(page: Page, pattern: string): Promise<{ release(): Promise<void> }> {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const handled: Promise<void>[] = [];
  const handler = (route: Route) => {
    const done = gate.then(() => route.continue());
    handled.push(done);
    return done;
  };
  await page.route(pattern, handler);
  return {
    async release() {
      open();
      await Promise.all(handled);
      await page.unroute(pattern, handler);
    },
  };
}

/** Asserts the page has no horizontal scroll at its current width. */
export async function expectNoHorizontalScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}
