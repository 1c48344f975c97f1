import { describe, expect, it } from 'vitest';
import { csvField, csvRow, neutralizeCsvValue, subscriberNameOf, subscribersCsvFileName, toCsv } from '../../shared/domain';

describe('CSV writer (RFC 4180, formula-safe)', () => {
  it.each([
    ['plain', 'Ada Lovelace', 'Ada Lovelace'],
    ['empty', '', ''],
    ['null', null, ''],
    ['number', 42, '42'],
    ['comma', 'Lovelace, Ada', '"Lovelace, Ada"'],
    ['double quote', 'Ada "Countess" King', '"Ada ""Countess"" King"'],
    ['LF', 'line1\nline2', '"line1\nline2"'],
    ['CRLF inside', 'a\r\nb', '"a\r\nb"'],
    ['only quotes', '""', '""""""'],
    ['formula =', '=1+2', "'=1+2"],
    ['formula + ', '+33 6 12', "'+33 6 12"],
    ['formula -', '-2+3', "'-2+3"],
    ['formula @', '@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['leading tab', '\tcmd', "'\tcmd"],
    ['leading CR', '\rcmd', `"'\rcmd"`],
    ['formula with comma and quotes', '=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['sign not at the start', 'a=b+c-d@e', 'a=b+c-d@e'],
    ['e-mail', 'ada@example.com', 'ada@example.com'],
    ['apostrophe start', "'quoted", "'quoted"],
    ['unicode', 'Zoë 日本', 'Zoë 日本'],
  ])('%s', (_label, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('neutralises exactly = + - @ tab and CR at the start', () => {
    for (const c of ['=', '+', '-', '@', '\t', '\r']) expect(neutralizeCsvValue(`${c}x`)).toBe(`'${c}x`);
    for (const c of ['a', ' ', '1', '#', '!', '\n']) expect(neutralizeCsvValue(`${c}x`)).toBe(`${c}x`);
  });

  it('ends every record, the last included, with CRLF', () => {
    expect(csvRow(['a', 'b,c'])).toBe('a,"b,c"\r\n');
    expect(toCsv(['Name', 'Email', 'Subscribed Date'], [['Ada', 'ada@example.com', '2025-03-05']])).toBe(
      'Name,Email,Subscribed Date\r\nAda,ada@example.com,2025-03-05\r\n',
    );
    expect(toCsv(['Name'], [])).toBe('Name\r\n');
  });
});

describe('subscriptions: small rules', () => {
  it.each([
    ['Ada Lovelace', 'ada@example.com', 'Ada Lovelace'],
    ['  Ada  ', 'ada@example.com', 'Ada'],
    ['', 'grace.hopper@example.com', 'grace.hopper'],
    ['   ', 'x@y.z', 'x'],
    [null, 'nobody@example.com', 'nobody'],
  ])('subscriber name of %j <%s> is %j', (name, email, expected) => {
    expect(subscriberNameOf(name, email)).toBe(expected);
  });

  it('names the export subscribers-YYYY-MM-DD.csv after the UTC date', () => {
    expect(subscribersCsvFileName(new Date('2025-03-05T23:59:59Z'))).toBe('subscribers-2025-03-05.csv');
    expect(subscribersCsvFileName(new Date('2025-12-31T00:00:00Z'))).toBe('subscribers-2025-12-31.csv');
  });
});
