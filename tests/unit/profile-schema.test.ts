import { describe, expect, it } from 'vitest';
import { MSG, handleOf, numberedUsername, profileUpdateSchema, registerSchema, usernameFromName } from '../../shared/domain';

describe('registration input', () => {
  it.each([
    [{ name: 'Ann', email: 'ann@example.com', password: '12345678' }, null],
    [{ name: '  ', email: 'ann@example.com', password: '12345678' }, MSG.nameRequired],
    [{ name: 'Ann', email: 'ann@', password: '12345678' }, MSG.emailInvalid],
    [{ name: 'Ann', email: 'ann@example.com', password: '1234567' }, MSG.passwordTooShort],
    [{ name: 'Ann', email: 'ann@example.com', password: 'x'.repeat(129) }, MSG.passwordTooLong],
    [{ name: 'Ann', email: 'ann@example.com', password: ' '.repeat(8) }, MSG.passwordBlank],
    [{ name: 'Ann', email: 'ann@example.com', password: ' \t\n\u00a0\u2003\u3000  ' }, MSG.passwordBlank],
    [{ name: 'Ann', email: 'ann@example.com', password: '  pass  word  ' }, null],
  ])('%o → %s', (input, message) => {
    const result = registerSchema.safeParse(input);
    expect(result.success ? null : result.error.issues[0]?.message).toBe(message);
  });

  it('normalises the e-mail (trim, lower case) and trims the name', () => {
    expect(registerSchema.parse({ name: ' Ann ', email: ' Ann@Example.COM ', password: '12345678' })).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      password: '12345678',
    });
  });
});

describe('profile update', () => {
  it.each([
    ['https://ann.dev', 'https://ann.dev'],
    ['http://ann.dev/about', 'http://ann.dev/about'],
    ['', null],
  ])('accepts website %s', (website, stored) => {
    expect(profileUpdateSchema.parse({ name: 'Ann', website }).website).toBe(stored);
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://ann.dev', 'ann.dev'])('rejects website %s', (website) => {
    const result = profileUpdateSchema.safeParse({ name: 'Ann', website });
    expect(result.success ? null : result.error.issues[0]?.message).toBe(MSG.websiteInvalid);
  });

  it('requires a name', () => {
    expect(profileUpdateSchema.safeParse({ name: ' ' }).error?.issues[0]?.message).toBe(MSG.nameRequired);
  });
});

describe('handleOf', () => {
  it('is the part of the e-mail before the @', () => {
    expect(handleOf('grace.hopper@navy.mil')).toBe('grace.hopper');
  });
});

describe('fediverse usernames', () => {
  it.each([
    ['Ada Lovelace', 'ada_lovelace'],
    ['  José  Ñúñez-García ', 'jose_nunez_garcia'],
    ['李白', 'curator'],
    ['A'.repeat(40), 'a'.repeat(30)],
    [`${'b'.repeat(29)} c`, 'b'.repeat(29)],
  ])('%s → %s', (name, username) => {
    expect(usernameFromName(name)).toBe(username);
  });

  it('numbers a taken one within 30 characters', () => {
    expect(numberedUsername('ada', 2)).toBe('ada2');
    expect(numberedUsername('a'.repeat(30), 12)).toBe(`${'a'.repeat(28)}12`);
  });

  it.each([
    ['Ada_L', 'ada_l', null],
    ['ada-l', null, MSG.fediverseUsernameInvalid],
    ['ada l', null, MSG.fediverseUsernameInvalid],
    ['', null, MSG.fediverseUsernameInvalid],
    ['a'.repeat(31), null, MSG.fediverseUsernameTooLong],
  ])('profile update with %s', (fediverseUsername, kept, message) => {
    const result = profileUpdateSchema.safeParse({ name: 'Ann', fediverseUsername });
    expect(result.success ? result.data.fediverseUsername : result.error.issues[0]?.message).toBe(kept ?? message);
  });
});
