import { describe, expect, test } from 'vitest';
import {
  expectNoHorizontalScroll,
  feedHeading,
  holdRequests,
  registerAndEnter,
  userBlockButton,
  visible,
  waitForPath,
} from './support/flows';
import { useE2E } from './support/harness';

const PHONE = { width: 375, height: 740 };
const NAV_ENTRIES = ['My Feed', 'Following', 'My Supercurations', 'My Subscribers'];

describe('main layout', () => {
  const e2e = useE2E();

  test('large screens: a sidebar with the four entries, the current one highlighted', async () => {
    const page = await e2e.open({ viewport: { width: 1280, height: 800 } });
    const account = await registerAndEnter(page);
    const nav = await visible(page.getByRole('navigation', { name: 'Main' }));
    for (const entry of NAV_ENTRIES) await visible(nav.getByRole('link', { name: entry }));
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    await visible(userBlockButton(page, account.name));
    expect(await nav.getByRole('link', { name: 'My Feed' }).getAttribute('aria-current')).toBe('page');

    await nav.getByRole('link', { name: 'My Supercurations' }).click();
    await waitForPath(page, '/supercurations');
    await visible(page.getByRole('heading', { name: 'My Supercurations', level: 1 }));
    expect(await nav.getByRole('link', { name: 'My Supercurations' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'My Feed' }).getAttribute('aria-current')).toBeNull();

    // 'My Supercurations' stays highlighted below its path.
    await page.goto('/supercurations/new');
    await visible(nav.getByRole('link', { name: 'My Supercurations' }));
    expect(await nav.getByRole('link', { name: 'My Supercurations' }).getAttribute('aria-current')).toBe('page');

    await nav.getByRole('link', { name: 'My Subscribers' }).click();
    await waitForPath(page, '/dashboard');
    await visible(page.getByRole('heading', { name: 'Subscriber Dashboard', level: 1 }));

    await page.goto('/saved');
    await visible(feedHeading(page));
    expect(await nav.getByRole('link', { name: 'My Feed' }).getAttribute('aria-current')).toBe('page');
  });

  test("shows 'Loading...' until the session is known", async () => {
    const page = await e2e.open();
    await registerAndEnter(page);
    // Hold the session request until the loading state has been seen.
    const held = await holdRequests(page, '**/api/me');
    await page.reload();
    await visible(page.getByRole('status').getByText('Loading...'));
    expect(await feedHeading(page).count()).toBe(0);
    await held.release();
    await visible(feedHeading(page));
  });

  test('phone-sized screens: no sidebar, a menu in the top bar, no horizontal scroll', async () => {
    const page = await e2e.open({ viewport: PHONE });
    const account = await registerAndEnter(page);

    // The sidebar is hidden: no navigation is on screen until the menu opens.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await userBlockButton(page, account.name).count()).toBe(0);
    await expectNoHorizontalScroll(page, PHONE.width);

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = await visible(page.getByRole('dialog'));
    const nav = await visible(menu.getByRole('navigation', { name: 'Main' }));
    for (const entry of NAV_ENTRIES) await visible(nav.getByRole('link', { name: entry }));
    await visible(menu.getByRole('button', { name: 'Sign out' }));
    await visible(userBlockButton(page, account.name));

    await nav.getByRole('link', { name: 'My Supercurations' }).click();
    await waitForPath(page, '/supercurations');
    await menu.waitFor({ state: 'hidden' });
    await visible(page.getByRole('heading', { name: 'My Supercurations', level: 1 }));
    await expectNoHorizontalScroll(page, PHONE.width);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(page.getByRole('dialog').getByRole('link', { name: 'My Subscribers' }));
    await page.getByRole('dialog').getByRole('link', { name: 'My Subscribers' }).click();
    await waitForPath(page, '/dashboard');
    await visible(page.getByRole('heading', { name: 'Subscriber Dashboard', level: 1 }));
    await expectNoHorizontalScroll(page, PHONE.width);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'My Feed' }).click();
    await waitForPath(page, '/home');
    await visible(feedHeading(page));

    // The menu closes with its close button too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(page.getByRole('dialog'));
    await page.getByRole('button', { name: 'Close menu' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  });

  test('phone-sized screens: the public pages fit without horizontal scroll', async () => {
    const page = await e2e.open({ viewport: PHONE });
    for (const path of ['/', '/login', '/register', '/no/such/page']) {
      await page.goto(path);
      await visible(page.getByRole('heading', { level: 1 }).first());
      await expectNoHorizontalScroll(page, PHONE.width);
    }
    await page.goto('/');
    await visible(page.getByRole('link', { name: 'Get Started' }));
    await visible(page.getByRole('link', { name: 'Log in' }));
    await visible(page.getByRole('link', { name: 'Sign up' }));
  });
});
