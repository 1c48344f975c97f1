import { describe, expect, test } from 'vitest';
import { useE2E } from './support/harness';
import { visible, waitForPath } from './support/flows';

describe('landing page', () => {
  const e2e = useE2E();

  test("shows the tagline, the three benefits and the ways in", async () => {
    const page = await e2e.open();
    await page.goto('/');
    await visible(page.getByRole('heading', { name: 'Internet. Curated.', level: 1 }));

    for (const benefit of [
      /discover quality content/i,
      /build your network/i,
      /stay informed with personalized email updates/i,
    ]) {
      await visible(page.getByText(benefit));
    }

    await visible(page.getByRole('link', { name: 'Log in' }));
    await visible(page.getByRole('link', { name: 'Sign up' }));
    const getStarted = await visible(page.getByRole('link', { name: 'Get Started' }));
    expect(await getStarted.getAttribute('href')).toBe('/register');
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
  });

  test("'Get Started' opens the registration form", async () => {
    const page = await e2e.open();
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await waitForPath(page, '/register');
    await visible(page.getByRole('button', { name: 'Create account' }));
  });

  test("'Log in' opens the sign-in form under the product name", async () => {
    const page = await e2e.open();
    await page.goto('/');
    await page.getByRole('link', { name: 'Log in' }).click();
    await waitForPath(page, '/login');
    await visible(page.getByRole('heading', { name: 'Supercurate', level: 1 }));
    await visible(page.getByRole('button', { name: 'Sign in' }));
  });

  test("an unknown path shows 'Page not found' with a 'Return to home' link to '/'", async () => {
    const page = await e2e.open();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await visible(page.getByRole('heading', { name: 'Page not found' }));
    const back = await visible(page.getByRole('link', { name: 'Return to home' }));
    expect(await back.getAttribute('href')).toBe('/');
    await back.click();
    await waitForPath(page, '/');
    await visible(page.getByRole('heading', { name: 'Internet. Curated.' }));
  });
});
